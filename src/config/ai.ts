/**
 * @module config/ai
 * The language model behind /api/explain (config/schema's `ai`, used by src/ai): explicit
 * `AI_PROVIDER`, else whichever provider's variables are set. A provider chosen without its key or
 * model is not an error at boot: `model` is null and /api/explain answers 503 `ai_unavailable`
 * with `unavailableReason`, naming the missing variable.
 */
import { z } from 'zod';
import { httpUrl, variable } from './fields';

const int = () => z.coerce.number().int();

export const aiGroup = z
  .object({
    provider: variable('AI_PROVIDER', z.enum(['anthropic', 'openai', 'off']).optional(), {
      shownDefault: 'auto',
      doc: '`anthropic`, `openai` (any OpenAI-compatible server) or `off`; unset: `anthropic` when `ANTHROPIC_API_KEY` is set, else `openai` when `OPENAI_BASE_URL` is, else `off` (`/api/explain` answers 503)',
    }),
    anthropic: z.object({
      apiKey: variable('ANTHROPIC_API_KEY', z.string().min(1).optional(), { doc: 'Anthropic API key (`x-api-key`)' }),
      baseUrl: variable('ANTHROPIC_BASE_URL', httpUrl, { default: 'https://api.anthropic.com', doc: 'where the Messages API is asked (`/v1/messages` is appended)' }),
      model: variable('ANTHROPIC_MODEL', z.string().min(1), { default: 'claude-sonnet-4-5', doc: 'model id' }),
    }),
    openai: z.object({
      baseUrl: variable('OPENAI_BASE_URL', httpUrl.optional(), {
        doc: 'an OpenAI-compatible server (llama.cpp, vLLM, Ollama, OpenAI) up to and including `/v1` (`/chat/completions` is appended), e.g. `http://127.0.0.1:8080/v1`',
      }),
      model: variable('OPENAI_MODEL', z.string().min(1).optional(), { doc: 'model name as that server knows it (required with `openai`)' }),
      apiKey: variable('OPENAI_API_KEY', z.string().min(1).optional(), { doc: 'sent as `Authorization: Bearer …` when set (local servers usually need none)' }),
    }),
    responseFormat: variable('OPENAI_RESPONSE_FORMAT', z.enum(['json_schema', 'json_object', 'off']), {
      default: 'json_schema',
      doc: 'how JSON is requested: `json_schema` (strict structured output), `json_object` (JSON mode) or `off` (prompt only, for servers that reject the field)',
    }),
    timeoutMs: variable('AI_TIMEOUT_MS', int().min(10).max(600_000), { default: '20000', doc: 'per model call; past it the call is abandoned and counts as a failure' }),
    maxOutputTokens: variable('AI_MAX_OUTPUT_TOKENS', int().min(64).max(8192), { default: '700', doc: 'output token cap per call' }),
    breaker: z.object({
      failures: variable('AI_BREAKER_FAILURES', int().min(1).max(1000), { default: '5', doc: 'consecutive failed or timed-out model calls that open the circuit' }),
      halfOpenAfterMs: variable('AI_BREAKER_HALF_OPEN_SECONDS', z.coerce.number().positive().max(86_400).transform((s) => Math.round(s * 1000)), {
        default: '30',
        doc: 'how long the circuit stays open before one probe request is let through',
      }),
    }),
  })
  .transform(({ provider: chosen, anthropic, openai, ...common }) => {
    const provider = chosen ?? (anthropic.apiKey ? 'anthropic' : openai.baseUrl ? 'openai' : 'off');
    if (provider === 'anthropic') {
      const missing = anthropic.apiKey ? undefined : 'no model API key: set ANTHROPIC_API_KEY';
      return { provider, baseUrl: anthropic.baseUrl, apiKey: anthropic.apiKey, model: missing ? null : anthropic.model, unavailableReason: missing, ...common };
    }
    if (provider === 'openai') {
      const missing = !openai.baseUrl ? 'no model endpoint: set OPENAI_BASE_URL' : !openai.model ? 'no model named: set OPENAI_MODEL' : undefined;
      return { provider, baseUrl: openai.baseUrl ?? '', apiKey: openai.apiKey, model: missing ? null : openai.model!, unavailableReason: missing, ...common };
    }
    return { provider, baseUrl: '', model: null, unavailableReason: 'no language model is configured (AI_PROVIDER=off): set ANTHROPIC_API_KEY, or OPENAI_BASE_URL and OPENAI_MODEL', ...common };
  });

/** The model to ask, as src/ai uses it. */
export type AiConfig = z.output<typeof aiGroup>;
