/**
 * The two provider clients against loopback servers speaking each vendor's
 * wire format (test/helpers/fake-models): the request they send, the answer
 * and usage figures they read back, and every upstream failure as a
 * `ModelCallError` the breaker can count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { AnthropicProvider, ANTHROPIC_VERSION } from '../../src/ai/anthropic';
import { ModelCallError, retryAfterMs, type ModelRequest } from '../../src/ai/interface';
import { OpenAiCompatibleProvider } from '../../src/ai/openai';
import { ANSWER_JSON_SCHEMA, ANSWER_SCHEMA_NAME, SYSTEM_PROMPT } from '../../src/ai/prompt';
import { fakeAnthropic, fakeOpenAi, type FakeModelServer } from '../helpers/fake-models';
import { guardLoopback } from '../helpers/loopback';

const BULLETS = ['The trigger is 50.1.', 'The stop is 47.6.', 'The target is 56.'];
const request = (user = 'Facts of the signal (JSON):\n{}'): ModelRequest => ({ system: SYSTEM_PROMPT, user, schema: ANSWER_JSON_SCHEMA, schemaName: ANSWER_SCHEMA_NAME, maxOutputTokens: 700 });

/** The rejection of `promise` as a ModelCallError. */
async function failureOf(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelCallError) return error;
    throw error;
  }
  throw new Error('expected a ModelCallError');
}

let guard: ReturnType<typeof guardLoopback>;
beforeAll(() => {
  guard = guardLoopback();
});
afterAll(() => guard.restore());

describe('Anthropic Messages API', () => {
  let fake: FakeModelServer;
  let claude: AnthropicProvider;
  beforeAll(() => {
    fake = fakeAnthropic();
    claude = new AnthropicProvider({ baseUrl: fake.url, apiKey: 'sk-ant-test', model: 'claude-sonnet-4-5' });
  });
  afterAll(() => fake.stop());

  it('sends the key, the API version, the cacheable system block and a forced tool call, and reads the tool input as the answer', async () => {
    fake.script = () => ({ kind: 'answer', bullets: BULLETS });
    const reply = await claude.complete(request());
    const call = fake.calls.at(-1)!;
    expect(call.headers['x-api-key']).toBe('sk-ant-test');
    expect(call.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(call.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 700,
      temperature: 0,
      system: [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
      tools: [{ name: ANSWER_SCHEMA_NAME, input_schema: ANSWER_JSON_SCHEMA }],
      tool_choice: { type: 'tool', name: ANSWER_SCHEMA_NAME },
      messages: [{ role: 'user', content: request().user }],
    });
    expect(reply.answer).toEqual({ kind: 'json', value: { bullets: BULLETS } });
    expect(reply.model).toBe('claude-sonnet-4-5-20250929');
  });

  it('counts cache writes and reads as input, and only reads as cached (the usage figures as the API reports them)', async () => {
    const fresh = fakeAnthropic();
    fresh.script = () => ({ kind: 'answer', bullets: BULLETS });
    try {
      const client = new AnthropicProvider({ baseUrl: fresh.url, apiKey: 'k', model: 'claude-sonnet-4-5' });
      const first = await client.complete(request());
      const second = await client.complete(request('Facts of the signal (JSON):\n{"other":1}'));
      const systemTokens = Math.ceil((JSON.stringify(fresh.calls[0]!.body.system) + JSON.stringify(fresh.calls[0]!.body.tools)).length / 4);
      expect(systemTokens).toBeGreaterThan(1024); // by the fake's 4-characters-a-token estimate: above Sonnet's minimum cacheable prefix
      // First call: the prefix is written to the cache (cache_creation_input_tokens), nothing read.
      expect(first.usage.cachedInputTokens).toBe(0);
      expect(first.usage.inputTokens).toBe(Math.ceil(request().user.length / 4) + systemTokens);
      // Second call: the same prefix is read from the cache (cache_read_input_tokens).
      expect(second.usage.cachedInputTokens).toBe(systemTokens);
      expect(second.usage.inputTokens).toBe(Math.ceil(request('Facts of the signal (JSON):\n{"other":1}').user.length / 4) + systemTokens);
      expect(second.usage.outputTokens).toBe(180);
    } finally {
      fresh.stop();
    }
  });

  it('returns a text block as text (the explainer decides whether it is JSON)', async () => {
    fake.script = () => ({ kind: 'answer', text: 'I cannot help with that.' });
    expect((await claude.complete(request())).answer).toEqual({ kind: 'text', text: 'I cannot help with that.' });
  });

  it('turns a 500 into an http failure naming the status and the vendor message', async () => {
    fake.script = () => ({ kind: 'status', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } });
    const error = await failureOf(claude.complete(request()));
    expect(error).toMatchObject({ failure: 'http', status: 500, provider: 'anthropic' });
    expect(error.message).toBe('anthropic: HTTP 500: Internal server error');
  });

  it('reads Retry-After from a 429', async () => {
    fake.script = () => ({ kind: 'status', status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } }, headers: { 'retry-after': '17' } });
    const error = await failureOf(claude.complete(request()));
    expect(error).toMatchObject({ failure: 'rate_limited', status: 429, retryAfterMs: 17_000 });
  });

  it('calls a body that is not JSON, or not a Messages response, a bad payload', async () => {
    fake.script = () => ({ kind: 'not_json' });
    expect(await failureOf(claude.complete(request()))).toMatchObject({ failure: 'bad_payload' });
    fake.script = () => ({ kind: 'status', status: 200, body: { hello: 'world' } });
    const error = await failureOf(claude.complete(request()));
    expect(error.failure).toBe('bad_payload');
    expect(error.message).toContain('not a Messages API response');
  });

  it('calls an unreachable server a network failure', async () => {
    const gone = fakeAnthropic();
    gone.stop();
    const client = new AnthropicProvider({ baseUrl: gone.url, apiKey: 'k', model: 'm' });
    expect(await failureOf(client.complete(request()))).toMatchObject({ failure: 'network' });
  });
});

describe('OpenAI-compatible chat completions', () => {
  let fake: FakeModelServer;
  beforeAll(() => {
    fake = fakeOpenAi();
  });
  afterAll(() => fake.stop());

  const client = (responseFormat: 'json_schema' | 'json_object' | 'off', apiKey?: string) => new OpenAiCompatibleProvider({ baseUrl: `${fake.url}/v1`, apiKey, model: 'qwen2.5-7b-instruct', responseFormat });

  it('asks for a strict JSON schema, system then user, and reads the message content as text', async () => {
    fake.script = () => ({ kind: 'answer', bullets: BULLETS });
    const reply = await client('json_schema', 'sk-local').complete(request());
    const call = fake.calls.at(-1)!;
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer sk-local');
    expect(call.body).toMatchObject({
      model: 'qwen2.5-7b-instruct',
      temperature: 0,
      max_tokens: 700,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: request().user },
      ],
      response_format: { type: 'json_schema', json_schema: { name: ANSWER_SCHEMA_NAME, schema: ANSWER_JSON_SCHEMA, strict: true } },
    });
    expect(reply.answer).toEqual({ kind: 'text', text: JSON.stringify({ bullets: BULLETS }) });
    expect(reply.model).toBe('qwen2.5-7b-instruct');
  });

  it('uses JSON mode, or no response_format, when configured; sends no key when none is set', async () => {
    fake.script = () => ({ kind: 'answer', bullets: BULLETS });
    await client('json_object').complete(request());
    expect(fake.calls.at(-1)!.body.response_format).toEqual({ type: 'json_object' });
    expect(fake.calls.at(-1)!.headers.authorization).toBeUndefined();
    await client('off').complete(request());
    expect(fake.calls.at(-1)!.body).not.toHaveProperty('response_format');
  });

  it('reads cached input from prompt_tokens_details (OpenAI, vLLM) and from timings (llama.cpp)', async () => {
    for (const flavour of ['openai', 'llama.cpp'] as const) {
      const server = fakeOpenAi({ flavour });
      server.script = () => ({ kind: 'answer', bullets: BULLETS });
      try {
        const c = new OpenAiCompatibleProvider({ baseUrl: `${server.url}/v1`, model: 'm', responseFormat: 'json_schema' });
        const first = await c.complete(request());
        const second = await c.complete(request());
        const systemTokens = Math.ceil(JSON.stringify(SYSTEM_PROMPT).length / 4);
        const prompt = systemTokens + Math.ceil(request().user.length / 4);
        expect(first.usage).toEqual({ inputTokens: prompt, cachedInputTokens: 0, outputTokens: 170 });
        expect(second.usage).toEqual({ inputTokens: prompt, cachedInputTokens: systemTokens, outputTokens: 170 });
      } finally {
        server.stop();
      }
    }
  });

  it('turns a 500, a 429 with Retry-After and a body that is not JSON into failures', async () => {
    fake.script = () => ({ kind: 'status', status: 500, body: { error: { message: 'CUDA out of memory', type: 'server_error' } } });
    expect(await failureOf(client('json_schema').complete(request()))).toMatchObject({ failure: 'http', status: 500, message: 'openai: HTTP 500: CUDA out of memory' });
    fake.script = () => ({ kind: 'status', status: 429, headers: { 'retry-after': '3' } });
    expect(await failureOf(client('json_schema').complete(request()))).toMatchObject({ failure: 'rate_limited', retryAfterMs: 3000 });
    fake.script = () => ({ kind: 'not_json' });
    expect(await failureOf(client('json_schema').complete(request()))).toMatchObject({ failure: 'bad_payload' });
    fake.script = () => ({ kind: 'status', status: 200, body: { choices: [] } });
    expect(await failureOf(client('json_schema').complete(request()))).toMatchObject({ failure: 'bad_payload' });
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates (RFC 9110 §10.2.3)', () => {
    const now = Date.UTC(2026, 10, 20, 18, 0, 0);
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Fri, 20 Nov 2026 18:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 17:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('loopback', () => {
  it('sent every model request to loopback and none elsewhere', () => {
    expect(guard.loopbackCalls()).toBeGreaterThan(10);
    expect(guard.offLoopback).toEqual([]);
  });
});
