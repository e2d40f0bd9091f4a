/**
 * @module ai/anthropic
 * The Anthropic Messages API (`POST /v1/messages`, `anthropic-version:
 * 2023-06-01`). Structured output by a forced tool call: the answer's JSON
 * schema is the tool's `input_schema` and `tool_choice` names it, so the
 * model replies with a `tool_use` block whose `input` is the answer.
 *
 * Prompt caching: the system block carries `cache_control: {type:
 * "ephemeral"}`, which caches the prefix up to it (tools, then system). The
 * API reports `input_tokens` (uncached), `cache_creation_input_tokens` and
 * `cache_read_input_tokens` separately; the total input is their sum, and
 * the cached share is `cache_read_input_tokens` of it. A prefix shorter than
 * the model's minimum cacheable length is not cached (the counts say so).
 *
 * @example
 * const claude = new AnthropicProvider({ baseUrl: 'https://api.anthropic.com', apiKey, model: 'claude-sonnet-4-5' });
 * const reply = await claude.complete({ system, user, schema, schemaName: 'explanation', maxOutputTokens: 700 });
 */
import { z } from 'zod';
import { ModelCallError, postJson, type ModelProvider, type ModelReply, type ModelRequest } from './interface';

export const ANTHROPIC_VERSION = '2023-06-01';

const Usage = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullish(),
  cache_read_input_tokens: z.number().int().nonnegative().nullish(),
});

const Block = z.looseObject({ type: z.string(), text: z.string().optional(), name: z.string().optional(), input: z.unknown().optional() });

const MessageResponse = z.object({
  type: z.literal('message'),
  model: z.string(),
  content: z.array(Block),
  stop_reason: z.string().nullish(),
  usage: Usage,
});

export interface AnthropicOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  readonly model: string;

  constructor(private readonly options: AnthropicOptions) {
    this.model = options.model;
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const body = {
      model: this.model,
      max_tokens: request.maxOutputTokens,
      temperature: 0,
      system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
      tools: [{ name: request.schemaName, description: 'Return the explanation as structured data.', input_schema: request.schema }],
      tool_choice: { type: 'tool', name: request.schemaName },
      messages: [{ role: 'user', content: request.user }],
    };
    const headers = { 'x-api-key': this.options.apiKey, 'anthropic-version': ANTHROPIC_VERSION };
    const json = await postJson(this.name, `${this.options.baseUrl}/v1/messages`, headers, body, request.signal);
    const parsed = MessageResponse.safeParse(json);
    if (!parsed.success) throw new ModelCallError('bad_payload', this.name, `not a Messages API response: ${z.prettifyError(parsed.error).slice(0, 200)}`);
    const message = parsed.data;
    const u = message.usage;
    const cachedInputTokens = u.cache_read_input_tokens ?? 0;
    const usage = { inputTokens: u.input_tokens + (u.cache_creation_input_tokens ?? 0) + cachedInputTokens, cachedInputTokens, outputTokens: u.output_tokens };
    const call = message.content.find((b) => b.type === 'tool_use' && b.name === request.schemaName);
    if (call) return { answer: { kind: 'json', value: call.input }, model: message.model, usage };
    const text = message.content.flatMap((b) => (b.type === 'text' && b.text !== undefined ? [b.text] : [])).join('');
    return { answer: { kind: 'text', text }, model: message.model, usage };
  }
}
