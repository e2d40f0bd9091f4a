/**
 * @module ai/interface
 * A language model behind one call: a fixed system prompt (cacheable), one
 * user message and the JSON schema the answer must follow. Each provider
 * (anthropic.ts, openai.ts) turns that into its vendor's wire format and the
 * reply back into text or JSON plus the token counts the API reported.
 *
 * A provider throws `ModelCallError` for everything that is the upstream's
 * fault (unreachable, HTTP error, 429, a body that is not the vendor's
 * format): the circuit breaker counts those. Whether the model's *answer* is
 * usable is decided above it (ai/explainer), not here.
 */
import { z } from 'zod';

export interface ModelRequest {
  /** The fixed instructions; providers that can cache a prompt prefix cache this. */
  system: string;
  user: string;
  /** JSON schema of the answer (structured output where the provider has it). */
  schema: Record<string, unknown>;
  schemaName: string;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

/** Token counts as the API reported them. `inputTokens` counts every input token, cached or not. */
export interface ModelUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

export interface ModelReply {
  /** The answer: JSON the API already parsed (a tool call), or text that should hold JSON. */
  answer: { kind: 'json'; value: unknown } | { kind: 'text'; text: string };
  /** The model as the API named it. */
  model: string;
  usage: ModelUsage;
}

export interface ModelProvider {
  /** `anthropic` or `openai`. */
  readonly name: string;
  /** The configured model. */
  readonly model: string;
  complete(request: ModelRequest): Promise<ModelReply>;
}

export type ModelFailure = 'network' | 'http' | 'rate_limited' | 'bad_payload' | 'timeout';

/** The upstream failed (not the answer's content): counted by the circuit breaker. */
export class ModelCallError extends Error {
  constructor(
    readonly failure: ModelFailure,
    readonly provider: string,
    message: string,
    readonly status?: number,
    /** From a 429's (or 503's) `Retry-After`, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'ModelCallError';
  }
}

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110
 * §10.2.3); undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * POSTs JSON and returns the parsed body, or throws `ModelCallError` naming
 * the provider, the status and the vendor's own error text.
 */
export async function postJson(provider: string, url: string, headers: Record<string, string>, body: unknown, signal?: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
  } catch (error) {
    if (signal?.aborted) throw new ModelCallError('timeout', provider, 'request aborted (timeout)');
    throw new ModelCallError('network', provider, `cannot reach ${new URL(url).origin}: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const detail = vendorMessage(text);
    const wait = retryAfterMs(response.headers.get('retry-after'));
    const failure = response.status === 429 ? 'rate_limited' : 'http';
    throw new ModelCallError(failure, provider, `HTTP ${response.status}${detail ? `: ${detail}` : ''}`, response.status, wait);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelCallError('bad_payload', provider, `the response body is not JSON (${text.slice(0, 80)})`, response.status);
  }
}

/** An error body as Anthropic and OpenAI-compatible servers send it: `{ error: { message } }` (or a bare string). */
const VendorError = z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) });

/** The vendor's own error message, else the start of the body. */
function vendorMessage(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text.slice(0, 200);
  }
  const parsed = VendorError.safeParse(json);
  if (!parsed.success) return text.slice(0, 200);
  const { error } = parsed.data;
  return (typeof error === 'string' ? error : error.message).slice(0, 200);
}
