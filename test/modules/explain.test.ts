/**
 * GET and POST /api/explain end to end: a real app over a persisted scan run
 * of the synthetic market, explaining through loopback fake model servers
 * that speak the Anthropic Messages and OpenAI chat-completions formats.
 * Bullets are parsed and grounded, refusals never pass an answer through,
 * cached answers skip the model, failures answer 503, and the circuit
 * breaker keeps a simulated 60 s outage from reaching the upstream more than
 * a probe at a time. Time is moved with `setSystemTime`, never slept.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, setSystemTime } from 'bun:test';
import { eq } from 'drizzle-orm';
import { createExplainer } from '../../src/ai';
import { SYSTEM_PROMPT } from '../../src/ai/prompt';
import { loadConfig } from '../../src/config';
import { ExplanationsRepository } from '../../src/db/repositories/explanations';
import { explanations } from '../../src/db/schema';
import type { Signal } from '../../src/domain/signal';
import { createLogger } from '../../src/log';
import type { ExplainResponse } from '../../src/modules/ai/model';
import type { HealthResponse } from '../../src/modules/system/model';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';
import { fakeAnthropic, fakeOpenAi, writeBullets, type FakeModelServer, type Reply } from '../helpers/fake-models';
import { expectGrounded } from '../helpers/grounded';
import { guardLoopback } from '../helpers/loopback';
import { smallMarket } from '../helpers/small-market';

let ctx: TestContext;
let fake: FakeModelServer;
let guard: ReturnType<typeof guardLoopback>;
let signals: Signal[];

/** A hand-written track record for the first signal's pattern and band: 3 wins, 1 loss, 1 open (expected figures by hand below). */
const HISTORY_R = [2, 1.5, 2, -1];

beforeAll(async () => {
  guard = guardLoopback();
  fake = fakeAnthropic();
  ctx = await createTestContext({
    provider: await smallMarket(),
    env: {
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.url,
      AI_TIMEOUT_MS: '1500', // a loaded CI machine can take a few hundred ms to answer on loopback
      AI_BREAKER_FAILURES: '3',
      AI_BREAKER_HALF_OPEN_SECONDS: '10',
      EXPLAIN_RATE_LIMIT_QUOTA: '100000',
    },
  });
  await ctx.services.runs.persist('daily');
  signals = (await ctx.services.runs.latest('daily'))!.view.signals;
  const { patternType, scoreBand } = signals[0]!;
  await ctx.services.ledger.append(
    [...HISTORY_R, null].map((_, i) => ({
      kind: 'signal' as const,
      signalId: `HIST-${i}`,
      patternType,
      scoreBand,
      finalScore: 75,
      detectedAt: new Date(Date.UTC(2025, 5, 2 + i * 7)),
      data: { id: `HIST-${i}`, symbol: `H${i}`, patternType, scoreBand, timeframe: 'daily', direction: 'long', regime: 'risk_on', detectedAt: new Date(Date.UTC(2025, 5, 2 + i * 7)).toISOString() },
    })),
  );
  await ctx.services.ledger.append(HISTORY_R.map((r, i) => ({ kind: 'outcome' as const, signalId: `HIST-${i}`, data: { outcome: r > 0 ? 'win' : 'loss', entered: true, rMultiple: r, daysHeld: 5 } })));
});
afterAll(async () => {
  setSystemTime();
  await ctx.close();
  fake.stop();
  guard.restore();
});
afterEach(() => {
  fake.script = () => ({ kind: 'answer' });
});

const explainPath = (s: Signal) => `/api/explain?symbol=${s.symbol}&signalId=${encodeURIComponent(s.id)}`;
const explain = (s: Signal) => ctx.json<ExplainResponse>(explainPath(s));

describe('GET /api/explain (Anthropic Messages API)', () => {
  it('explains a persisted signal by id: grounded bullets from facts gathered from the run, the provider and the ledger', async () => {
    expect(signals.length).toBeGreaterThanOrEqual(17);
    const s = signals[0]!;
    const { status, headers, body } = await explain(s);
    expect(status).toBe(200);
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) expect(headers.get(h)).not.toBeNull();
    expect(body).toMatchObject({ symbol: s.symbol, patternType: s.patternType, signalId: s.id, modelUsed: 'claude-sonnet-4-5-20250929', cached: false, cacheHitRatio: 0 });
    expectGrounded(body);
    expect(body.bullets).toEqual(writeBullets(body.facts));

    // The facts: the signal as the run saw it, the run's regime, the instrument's sector, earnings, and the ledger.
    const run = (await ctx.services.runs.latest('daily'))!.view;
    const instrument = await ctx.services.marketData.instrument(s.symbol);
    expect(body.facts.signal).toMatchObject({ id: s.id, symbol: s.symbol, name: instrument.name, breakoutState: s.breakoutState, scoreBand: s.scoreBand, detectedAt: s.detectedAt });
    expect(body.facts.levels.trigger).toBeCloseTo(s.triggerPrice, 2);
    expect(body.facts.levels.target1).toBeCloseTo(s.target1, 2);
    expect(body.facts.levels.rewardRisk).toBeCloseTo(Math.abs(s.target1 - s.triggerPrice) / Math.abs(s.triggerPrice - s.stopLoss!), 2);
    expect(body.facts.geometry!.lengthBars).toBe(s.geometry.lengthBars);
    expect(body.facts.regime.market).toBe(run.regime!.regime);
    expect(body.facts.regime.symbolTrend).toBe(s.trendRegime);
    expect(body.facts.sector.name).toBe(instrument.sector);
    // The sector fund's rotation, as /api/sector-rotation reads it (the run stands on the latest bar).
    const rotation = (await ctx.json<{ sectors: { symbol: string; quadrant: string; rsRatio: number; performance: { '1m': { relative: number } } }[] }>('/api/sector-rotation')).body.sectors.find((r) => r.symbol === body.facts.sector.sectorEtf)!;
    expect(body.facts.sector.rotation).toMatchObject({ benchmark: 'SPY', quadrant: rotation.quadrant, asOf: run.asOf.slice(0, 10) });
    expect(body.facts.sector.rotation!.rsRatio).toBeCloseTo(rotation.rsRatio, 1);
    expect(body.facts.sector.rotation!.relative1mPct).toBeCloseTo(rotation.performance['1m'].relative, 2);
    expect(body.facts.signal.asOf).toBe(run.asOf.slice(0, 10));
    expect(body.facts.earnings!.nextReport! >= '2026-11-20').toBe(true); // the fixed clock's today
    expect(body.facts.earnings!.tradingDaysUntil).toBeGreaterThanOrEqual(0);
    const live = signals.filter((x) => x.patternType === s.patternType && x.scoreBand === s.scoreBand).length;
    // By hand: R = 2, 1.5, 2, −1 → 3 of 4 won (75%), mean 4.5 ÷ 4 = 1.125 R (1.13 shown), 5 hand records + this run's.
    expect(body.facts.history[0]).toMatchObject({ source: 'live', scope: 'pattern_and_band', patternType: s.patternType, scoreBand: s.scoreBand, signals: 5 + live, closed: 4, wins: 3, losses: 1, hitRatePct: 75, avgR: 1.13, totalR: 4.5 });
    expect(body.facts.history[0]!.hitRateLowPct!).toBeLessThan(75);
    expect(body.facts.history[1]).toMatchObject({ source: 'live', scope: 'pattern', scoreBand: null, closed: 4 });

    // What the model was given: the fixed system prompt (cacheable) and exactly these facts.
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.body.system).toEqual([{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }]);
    expect(fake.calls[0]!.facts).toEqual(body.facts);
    const [row] = await ctx.services.database.db.select().from(explanations).where(eq(explanations.signalId, s.id));
    expect(row).toMatchObject({ symbol: s.symbol, provider: 'anthropic', model: 'claude-sonnet-4-5-20250929', bullets: body.bullets, attempts: 1 });
  });

  it('answers the same signal and facts from the cache, without calling the model', async () => {
    const before = fake.calls.length;
    const first = (await explain(signals[0]!)).body;
    expect(first.cached).toBe(true);
    expect(fake.calls).toHaveLength(before);
    expect(first.bullets).toEqual(writeBullets(first.facts));
  });

  it('shares one model call among identical requests in flight', async () => {
    const before = fake.calls.length;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.script = () => ({ kind: 'answer', after: held }); // the answer waits until all three requests are in flight
    const pending = Promise.all([explain(signals[16]!), explain(signals[16]!), explain(signals[16]!)]);
    await Bun.sleep(300);
    release();
    const replies = await pending;
    expect(replies.map((r) => [r.status, r.body.cached])).toEqual([[200, false], [200, false], [200, false]]);
    expect(new Set(replies.map((r) => JSON.stringify(r.body.bullets))).size).toBe(1);
    expect(fake.calls).toHaveLength(before + 1);
  });

  it('reports the prompt-cached share of input tokens (cache reads ÷ all input, as the API reports them) as cacheHitRatio', async () => {
    const { status, body } = await explain(signals[1]!);
    expect(status).toBe(200);
    const call = fake.calls.at(-1)!;
    const systemTokens = Math.ceil((JSON.stringify(call.body.system) + JSON.stringify(call.body.tools)).length / 4);
    const userTokens = Math.ceil(call.user.length / 4);
    // The fake reports cache_read_input_tokens = the system prefix, input_tokens = the user message, no cache write.
    expect(body.cacheHitRatio).toBe(Math.round((systemTokens / (systemTokens + userTokens)) * 10_000) / 10_000);
    expect(body.cacheHitRatio!).toBeGreaterThan(0.5);
  });

  it("explains the symbol's best current signal when no signalId is given", async () => {
    const bySymbol = Map.groupBy(signals, (s) => s.symbol);
    const symbol = [...bySymbol.entries()].find(([, list]) => list.length > 1)?.[0] ?? signals[2]!.symbol;
    const { status, body } = await ctx.json<ExplainResponse>(`/api/explain?symbol=${symbol.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body.signalId).toBe(bySymbol.get(symbol)![0]!.id); // ranked best first
    expectGrounded(body);
  });

  it('answers 404 for a signal that does not exist, one of another symbol, an unknown symbol, or a symbol without a signal', async () => {
    const s = signals[0]!;
    const other = signals.find((x) => x.symbol !== s.symbol)!;
    for (const path of [
      `/api/explain?symbol=${s.symbol}&signalId=${encodeURIComponent(`${s.symbol}-vcp-1999-01-01T00:00:00.000Z`)}`,
      `/api/explain?symbol=${other.symbol}&signalId=${encodeURIComponent(s.id)}`,
      '/api/explain?symbol=ZZZZZ',
      '/api/explain?symbol=SPY',
    ]) {
      const response = await ctx.request(path);
      expect(response.status).toBe(404);
      expect((await errorBody(response)).code).toBe('not_found');
    }
  });
});

describe('the grounding check and answer validation', () => {
  const inventing = (call: Parameters<FakeModelServer['script']>[0]): Reply => {
    const bullets = writeBullets(call.facts);
    return { kind: 'answer', bullets: [bullets[0]!, `${bullets[1]} Analysts see it reaching 987.65 by spring.`, ...bullets.slice(2)] };
  };

  it('retries once, naming the invented number, and shows the corrected answer', async () => {
    const before = fake.calls.length;
    fake.script = (call, index) => (index === before ? inventing(call) : { kind: 'answer' });
    const { status, body } = await explain(signals[3]!);
    expect(status).toBe(200);
    expect(fake.calls).toHaveLength(before + 2);
    const retry = fake.calls.at(-1)!.user;
    expect(retry).toContain('Your previous answer was refused');
    expect(retry).toContain('bullet 2 states 987.65, which matches no number in the facts');
    expect(body.bullets.join(' ')).not.toContain('987.65');
    expectGrounded(body);
    const [row] = await ctx.services.database.db.select().from(explanations).where(eq(explanations.signalId, signals[3]!.id));
    expect(row!.attempts).toBe(2);
  });

  it('refuses an answer that invents a number twice: 502, never passed through, nothing cached', async () => {
    const before = fake.calls.length;
    fake.script = inventing;
    const response = await ctx.request(explainPath(signals[4]!));
    expect(response.status).toBe(502);
    const error = await errorBody(response);
    expect(error.code).toBe('ai_refused');
    expect(error.error).toContain('987.65');
    expect(JSON.stringify(error)).not.toContain('Analysts see it');
    expect(fake.calls).toHaveLength(before + 2);
    expect(await ctx.services.database.db.select().from(explanations).where(eq(explanations.signalId, signals[4]!.id))).toEqual([]);
    fake.script = () => ({ kind: 'answer' });
    const again = await explain(signals[4]!);
    expect(again.body.cached).toBe(false);
    expect(fake.calls).toHaveLength(before + 3);
  });

  it('retries an answer that is not JSON, and refuses it the second time', async () => {
    const before = fake.calls.length;
    fake.script = (_, index) => (index === before ? { kind: 'answer', text: 'Sure! Here is a summary of the setup…' } : { kind: 'answer' });
    const recovered = await explain(signals[5]!);
    expect(recovered.status).toBe(200);
    expect(fake.calls.at(-1)!.user).toContain('the answer is not valid JSON');
    fake.script = () => ({ kind: 'answer', value: { bullets: ['Only one bullet.'] } });
    const refused = await ctx.request(explainPath(signals[6]!));
    expect(refused.status).toBe(502);
    expect((await errorBody(refused)).error).toContain('Too small: expected array to have >=3 items');
  });
});

describe('upstream failures', () => {
  it('answers 503 ai_unavailable naming the cause when the model answers 500', async () => {
    fake.script = () => ({ kind: 'status', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } });
    const response = await ctx.request(explainPath(signals[7]!));
    expect(response.status).toBe(503);
    expect(await errorBody(response)).toMatchObject({ code: 'ai_unavailable', error: 'AI explanations are unavailable: anthropic: HTTP 500: Internal server error' });
  });

  it('honours Retry-After on a 429: 503 with Retry-After, and no upstream call until that time', async () => {
    const now = Date.now();
    setSystemTime(new Date(now));
    try {
      fake.script = () => ({ kind: 'status', status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, headers: { 'retry-after': '7' } });
      const first = await ctx.request(explainPath(signals[7]!));
      expect(first.status).toBe(503);
      expect(first.headers.get('retry-after')).toBe('7');
      const calls = fake.calls.length;
      fake.script = () => ({ kind: 'answer' });
      setSystemTime(new Date(now + 3000));
      const held = await ctx.request(explainPath(signals[7]!));
      expect(held.status).toBe(503);
      expect(held.headers.get('retry-after')).toBe('4');
      expect((await errorBody(held)).error).toContain('Retry-After');
      expect(fake.calls).toHaveLength(calls);
      setSystemTime(new Date(now + 7000));
      expect((await explain(signals[7]!)).status).toBe(200);
      expect(fake.calls).toHaveLength(calls + 1);
    } finally {
      setSystemTime();
    }
  });

  it('answers 503 when the model hangs past AI_TIMEOUT_MS', async () => {
    fake.script = () => ({ kind: 'hang' });
    const response = await ctx.request(explainPath(signals[8]!));
    expect(response.status).toBe(503);
    expect((await errorBody(response)).error).toBe('AI explanations are unavailable: anthropic: no answer within 1500 ms');
  });
});

describe('the circuit breaker through the route', () => {
  it('during a simulated 60 s outage sends 8 of 60 requests upstream, keeps the service healthy, and closes on the first probe after it', async () => {
    expect((await explain(signals[9]!)).status).toBe(200); // a success first: no failures carried over
    const t0 = Date.now();
    const at = (second: number) => setSystemTime(new Date(t0 + second * 1000));
    let down = true;
    fake.script = () => (down ? { kind: 'status', status: 500 } : { kind: 'answer' });
    const before = fake.calls.length;
    const statuses: number[] = [];
    let health: HealthResponse | undefined;
    let healthStatus = 0;
    try {
      for (let second = 0; second < 60; second++) {
        at(second);
        statuses.push((await ctx.request(explainPath(signals[10]!))).status);
        if (second === 30) {
          ({ status: healthStatus, body: health } = await ctx.json<HealthResponse>('/api/health'));
          const cached = await explain(signals[9]!); // answered before the outage: served from the cache while the circuit is open
          expect(cached.status).toBe(200);
          expect(cached.body.cached).toBe(true);
        }
      }
      const upstream = fake.calls.slice(before).map((c) => Math.round((c.at - t0) / 1000));
      // 3 failures open the circuit (AI_BREAKER_FAILURES=3); then one probe every 10 s (AI_BREAKER_HALF_OPEN_SECONDS=10).
      expect(upstream).toEqual([0, 1, 2, 12, 22, 32, 42, 52]);
      expect(statuses).toEqual(Array(60).fill(503));
      expect(healthStatus).toBe(200);
      expect(health!.status).toBe('ok');
      expect(health!.details!.ai!.status).toBe('degraded');
      expect(health!.details!.ai!.message).toContain('circuit open');
      expect(ctx.services.explainer.status()).toMatchObject({ circuit: 'open' });

      down = false;
      const after: number[] = [];
      for (let second = 60; second < 66; second++) {
        at(second);
        after.push((await ctx.request(explainPath(signals[10]!))).status);
      }
      expect(after).toEqual([503, 503, 200, 200, 200, 200]); // the probe at 62 s succeeds; then answered from the cache
      expect(fake.calls.length - before).toBe(9);
      expect(ctx.services.explainer.status().circuit).toBe('closed');
    } finally {
      setSystemTime();
    }
  });
});

describe('POST /api/explain', () => {
  it('explains a client-supplied signal with its news and sector context, then from the cache', async () => {
    const s = signals[11]!;
    const body = {
      signal: { symbol: s.symbol.toLowerCase(), timeframe: s.timeframe, patternType: s.patternType, direction: s.direction, finalScore: s.finalScore, triggerPrice: s.triggerPrice, target1: s.target1, stopLoss: s.stopLoss, detectedAt: s.detectedAt },
      news: [{ title: `${s.symbol} raises full-year guidance`, publisher: 'Newswire', date: '2026-11-19', url: 'https://example.com/a' }],
      sectorCtx: { leadership: 'leading', note: 'semis strongest group this month', nested: { ignored: true } },
    };
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const { status, body: answer } = await ctx.json<ExplainResponse>('/api/explain', init);
    expect(status).toBe(200);
    expect(answer).toMatchObject({ symbol: s.symbol, patternType: s.patternType, signalId: s.id, cached: false });
    expect(answer.facts.news).toEqual([{ headline: `${s.symbol} raises full-year guidance`, source: 'Newswire', publishedAt: '2026-11-19', summary: null }]);
    expect(answer.facts.sector.client).toEqual({ leadership: 'leading', note: 'semis strongest group this month' });
    expect(answer.facts.regime.market).toBe((await ctx.services.runs.latest('daily'))!.view.regime!.regime);
    expect(answer.facts.signal.breakoutState).toBeNull(); // not sent, not invented
    expect(answer.bullets.some((b) => b.includes('raises full-year guidance'))).toBe(true);
    expectGrounded(answer);
    const again = await ctx.json<ExplainResponse>('/api/explain', init);
    expect(again.body.cached).toBe(true);
  });
});

describe('an OpenAI-compatible server (llama.cpp, vLLM, Ollama)', () => {
  it('explains through chat completions with a JSON schema, reading cached input from either usage format', async () => {
    const saved = ctx.services.explainer;
    for (const [flavour, first, second] of [['openai', signals[12]!, signals[13]!], ['llama.cpp', signals[14]!, signals[15]!]] as const) {
      const server = fakeOpenAi({ flavour });
      const config = loadConfig({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_MODEL: 'qwen2.5-7b-instruct' });
      ctx.services.explainer = createExplainer(config.ai, { repository: new ExplanationsRepository(ctx.services.database.db), log: createLogger('silent') });
      try {
        const a = await explain(first);
        expect(a.status).toBe(200);
        expect(a.body).toMatchObject({ modelUsed: 'qwen2.5-7b-instruct', cacheHitRatio: 0, cached: false });
        expectGrounded(a.body);
        expect(server.calls[0]!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
        const b = await explain(second);
        const systemTokens = Math.ceil(JSON.stringify(SYSTEM_PROMPT).length / 4);
        const prompt = systemTokens + Math.ceil(server.calls[1]!.user.length / 4);
        expect(b.body.cacheHitRatio).toBe(Math.round((systemTokens / prompt) * 10_000) / 10_000);
      } finally {
        server.stop();
        ctx.services.explainer = saved;
      }
    }
  });
});

describe('loopback', () => {
  it('sent every model request to loopback and none elsewhere', () => {
    expect(guard.loopbackCalls()).toBeGreaterThan(10);
    expect(guard.offLoopback).toEqual([]);
  });
});
