/**
 * /api/explain without a model: the 503 the spec names, every bad input a
 * 400 naming its field (never a 500), the body size limit, the explain quota
 * and the documented contract. No model server is involved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createExplainer } from '../../src/ai';
import { loadConfig } from '../../src/config';
import { ExplanationsRepository } from '../../src/db/repositories/explanations';
import { createLogger } from '../../src/log';
import type { HealthResponse } from '../../src/modules/system/model';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

const SIGNAL = { symbol: 'aapl', timeframe: 'daily', patternType: 'flat_base', direction: 'long', finalScore: 78.4, triggerPrice: 231.5, target1: 254.65, stopLoss: 222.24 };
const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) => ({ method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { EXPLAIN_BODY_LIMIT_BYTES: '2048', EXPLAIN_RATE_LIMIT_QUOTA: '1000' } });
});
afterAll(() => ctx.close());

describe('without a model configured', () => {
  it('answers GET and POST with 503 ai_unavailable naming what to set', async () => {
    for (const [path, init] of [['/api/explain?symbol=AAPL', undefined], ['/api/explain', post({ signal: SIGNAL })]] as const) {
      const response = await ctx.request(path, init);
      expect(response.status).toBe(503);
      const body = await errorBody(response);
      expect(body.code).toBe('ai_unavailable');
      expect(body.error).toContain('ANTHROPIC_API_KEY');
      expect(body.error).toContain('OPENAI_BASE_URL');
    }
  });

  it('names the missing key when the Anthropic provider is chosen without one', async () => {
    const config = loadConfig({ AI_PROVIDER: 'anthropic' });
    expect(config.ai).toMatchObject({ provider: 'anthropic', model: null, unavailableReason: 'no model API key: set ANTHROPIC_API_KEY' });
    const saved = ctx.services.explainer;
    ctx.services.explainer = createExplainer(config.ai, { repository: new ExplanationsRepository(ctx.services.database.db), log: createLogger('silent') });
    try {
      const body = await errorBody(await ctx.request('/api/explain?symbol=AAPL'));
      expect(body).toMatchObject({ code: 'ai_unavailable', error: 'AI explanations are unavailable: no model API key: set ANTHROPIC_API_KEY' });
    } finally {
      ctx.services.explainer = saved;
    }
  });

  it('keeps the service healthy, reporting the model in details.ai only', async () => {
    const { status, body } = await ctx.json<HealthResponse>('/api/health');
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(Object.keys(body.checks).sort()).toEqual(['bus', 'dataAdapter', 'db', 'env', 'kv', 'pool']);
    expect(body.details!.ai).toMatchObject({ status: 'warn' });
    expect(body.details!.ai!.message).toContain('/api/explain answers 503');
  });
});

describe('bad input is a 400 naming the field, never a 500', () => {
  it('GET: a missing or malformed symbol, a malformed signalId', async () => {
    for (const [path, field] of [
      ['/api/explain', 'symbol'],
      ['/api/explain?symbol=', 'symbol'],
      ['/api/explain?symbol=123', 'symbol'],
      ['/api/explain?symbol=AAPL&signalId=nonsense', 'signalId'],
      [`/api/explain?symbol=AAPL&signalId=${'A'.repeat(200)}-vcp-2026-11-18T21:00:00.000Z`, 'signalId'],
    ] as const) {
      const response = await ctx.request(path);
      expect(response.status).toBe(400);
      const body = await errorBody(response);
      expect(body.code).toBe('invalid_parameter');
      expect(body.error).toContain(field);
    }
  });

  it('POST: each invalid body names what is wrong', async () => {
    const cases: [unknown, string][] = [
      [{}, 'signal'],
      [{ signal: { ...SIGNAL, finalScore: 'high' } }, 'signal.finalScore'],
      [{ signal: { ...SIGNAL, finalScore: 140 } }, 'signal.finalScore'],
      [{ signal: { ...SIGNAL, patternType: 'head_and_shoulders' } }, 'signal.patternType'],
      [{ signal: { ...SIGNAL, symbol: '$$$' } }, 'signal.symbol'],
      [{ signal: { ...SIGNAL, direction: undefined } }, 'signal.direction'],
      [{ signal: { ...SIGNAL, detectedAt: 'yesterday' } }, 'signal.detectedAt'],
      [{ signal: SIGNAL, news: 'big news' }, 'news'],
      [{ signal: SIGNAL, news: Array.from({ length: 21 }, () => ({ headline: 'x' })) }, 'news'],
      [{ signal: SIGNAL, sectorCtx: [1, 2] }, 'sectorCtx'],
      [[SIGNAL], 'body'],
    ];
    for (const [body, field] of cases) {
      const response = await ctx.request('/api/explain', post(body));
      expect(response.status).toBe(400);
      const error = await errorBody(response);
      expect(error.code).toBe('invalid_body');
      expect(error.error).toContain(field);
    }
  });

  it('POST: a body that is not JSON, empty or of another content type', async () => {
    for (const init of [post('{"signal":'), post(''), post(JSON.stringify({ signal: SIGNAL }), { 'content-type': 'text/plain' }), { method: 'POST' }]) {
      const response = await ctx.request('/api/explain', init);
      expect(response.status).toBe(400);
      expect((await errorBody(response)).code).toBe('invalid_body');
    }
  });

  it('POST: a body over EXPLAIN_BODY_LIMIT_BYTES is 413, whether it declares its length or streams it', async () => {
    const big = JSON.stringify({ signal: SIGNAL, news: [{ headline: 'x'.repeat(4000) }] });
    const declared = await ctx.request('/api/explain', post(big, { 'content-type': 'application/json', 'content-length': String(big.length) }));
    expect(declared.status).toBe(413);
    expect(await errorBody(declared)).toMatchObject({ code: 'payload_too_large', error: 'The request body exceeds the limit of 2048 bytes' });
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 512) controller.enqueue(bytes.slice(i, i + 512));
        controller.close();
      },
    });
    const chunked = await ctx.app.handle(new Request('http://localhost/api/explain', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream }));
    expect(chunked.status).toBe(413);
    expect((await errorBody(chunked)).code).toBe('payload_too_large');
  });
});

describe('the explain quota', () => {
  it('is stricter than the general limit, counts only valid requests, and answers 429 with Retry-After', async () => {
    const strict = await createTestContext({ env: { EXPLAIN_RATE_LIMIT_QUOTA: '3', EXPLAIN_RATE_LIMIT_WINDOW_SECONDS: '60' } });
    try {
      expect((await strict.request('/api/explain?symbol=123')).status).toBe(400); // not counted
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await strict.request('/api/explain?symbol=AAPL');
        expect(response.status).toBe(503);
        expect(response.headers.get('x-ratelimit-limit')).toBe('3');
        remaining.push(response.headers.get('x-ratelimit-remaining')!);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await strict.request('/api/explain', post({ signal: SIGNAL }));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited' });
      // Other routes still answer under the general limit.
      const snapshot = await strict.request('/api/snapshot?symbol=AAPL');
      expect(snapshot.status).toBe(200);
      expect(snapshot.headers.get('x-ratelimit-limit')).toBe('120');
    } finally {
      await strict.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents GET and POST /api/explain under the AI tag, with the request body schema', async () => {
    const { body } = await ctx.json<{ tags: { name: string }[]; components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> }; paths: Record<string, Record<string, { tags: string[]; parameters?: { name: string }[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> }; responses: Record<string, unknown> }>> }>('/openapi/json');
    expect(body.tags.map((t) => t.name)).toContain('AI');
    const { get, post: postOp } = body.paths['/api/explain']!;
    expect(get!.tags).toEqual(['AI']);
    // Beside its own, every operation takes the shared API-Version header (by reference) and declares a default error.
    expect(get!.parameters!.flatMap((p) => p.name ?? []).sort()).toEqual(['signalId', 'symbol']);
    expect(Object.keys(get!.responses).sort()).toEqual(['200', '400', '404', '429', '500', '502', '503', 'default']);
    // The body's schema is published once, under components, by reference.
    const ref = (postOp!.requestBody!.content['application/json']!.schema as { $ref?: string }).$ref;
    expect(ref).toBe('#/components/schemas/ExplainRequestBody');
    const schema = body.components.schemas.ExplainRequestBody!;
    expect(Object.keys(schema.properties!).sort()).toEqual(['news', 'sectorCtx', 'signal']);
    expect(schema.required).toEqual(['signal']);
    expect(Object.keys(postOp!.responses).sort()).toEqual(['200', '400', '413', '429', '502', '503', 'default']);
  });
});
