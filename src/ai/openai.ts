/**
 * @module ai/openai
 * Any OpenAI-compatible chat-completions server (`POST {base}/chat/completions`,
 * with `base` up to and including `/v1`): OpenAI itself, llama.cpp's
 * `llama-server`, vLLM, Ollama. Structured output by `response_format`:
 * `json_schema` (strict; llama.cpp and vLLM turn it into a grammar, Ollama
 * into its `format`), `json_object` (JSON mode), or `off` for servers that
 * reject the field (the system prompt still asks for JSON).
 *
 * Usage: `prompt_tokens` counts all input; cached input is
 * `prompt_tokens_details.cached_tokens` (OpenAI, vLLM with prefix caching,
 * recent llama.cpp), else llama.cpp's `timings.cache_n` beside
 * `timings.prompt_n`, else none.
 *
 * @example
 * const local = new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b-instruct', responseFormat: 'json_schema' });
 */
import { z } from 'zod';
import { ModelCallError, postJson, type ModelProvider, type ModelReply, type ModelRequest, type ModelUsage } from './interface';

const Completion = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative().optional(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
  timings: z.object({ cache_n: z.number().int().nonnegative().optional(), prompt_n: z.number().int().nonnegative().optional() }).nullish(),
});

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  responseFormat: 'json_schema' | 'json_object' | 'off';
}

export class OpenAiCompatibleProvider implements ModelProvider {
  readonly name = 'openai';
  readonly model: string;

  constructor(private readonly options: OpenAiOptions) {
    this.model = options.model;
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const { responseFormat } = this.options;
    const body = {
      model: this.model,
      temperature: 0,
      max_tokens: request.maxOutputTokens,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
      ...(responseFormat === 'json_schema' ? { response_format: { type: 'json_schema', json_schema: { name: request.schemaName, schema: request.schema, strict: true } } } : {}),
      ...(responseFormat === 'json_object' ? { response_format: { type: 'json_object' } } : {}),
    };
    const headers: Record<string, string> = this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
    const json = await postJson(this.name, `${this.options.baseUrl}/chat/completions`, headers, body, request.signal);
    const parsed = Completion.safeParse(json);
    if (!parsed.success) throw new ModelCallError('bad_payload', this.name, `not a chat completion: ${z.prettifyError(parsed.error).slice(0, 200)}`);
    const completion = parsed.data;
    const message = completion.choices[0]!.message;
    const text = message.content ?? (message.refusal ? `(refused: ${message.refusal})` : '');
    return { answer: { kind: 'text', text }, model: completion.model ?? this.model, usage: usageOf(completion) };
  }
}

function usageOf(c: z.infer<typeof Completion>): ModelUsage {
  const outputTokens = c.usage?.completion_tokens ?? 0;
  const cached = c.usage?.prompt_tokens_details?.cached_tokens;
  if (c.usage && typeof cached === 'number') return { inputTokens: c.usage.prompt_tokens, cachedInputTokens: cached, outputTokens };
  if (c.timings?.cache_n !== undefined && c.timings.prompt_n !== undefined) {
    return { inputTokens: c.timings.cache_n + c.timings.prompt_n, cachedInputTokens: c.timings.cache_n, outputTokens };
  }
  return { inputTokens: c.usage?.prompt_tokens ?? 0, cachedInputTokens: 0, outputTokens };
}
