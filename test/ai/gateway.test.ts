/**
 * The model gateway (src/ai/gateway) against a fake Anthropic server:
 * per-request timeout, the circuit breaker opening after consecutive
 * failures and probing with one request, the Retry-After hold, and the state
 * it reports and logs. Time is simulated with `setSystemTime` (cockatiel and
 * the gateway read `Date.now()`); no test sleeps through an open period.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, setSystemTime } from 'bun:test';
import { AnthropicProvider } from '../../src/ai/anthropic';
import { ModelGateway, type CircuitName } from '../../src/ai/gateway';
import { ANSWER_JSON_SCHEMA, ANSWER_SCHEMA_NAME, SYSTEM_PROMPT } from '../../src/ai/prompt';
import { AppError } from '../../src/errors';
import { createLogger } from '../../src/log';
import { fakeAnthropic, type FakeModelServer } from '../helpers/fake-models';
import { guardLoopback } from '../helpers/loopback';

const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);
const SECOND = 1000;
const REQUEST = { system: SYSTEM_PROMPT, user: 'Facts of the signal (JSON):\n{}', schema: ANSWER_JSON_SCHEMA, schemaName: ANSWER_SCHEMA_NAME, maxOutputTokens: 700 };
const ANSWER = { kind: 'answer' as const, bullets: ['One 1.', 'Two 2.', 'Three 3.'] };
const FAIL_500 = { kind: 'status' as const, status: 500, body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } };

let fake: FakeModelServer;
let guard: ReturnType<typeof guardLoopback>;
beforeAll(() => {
  guard = guardLoopback();
  fake = fakeAnthropic();
});
afterAll(() => {
  fake.stop();
  guard.restore();
});
afterEach(() => {
  setSystemTime();
  fake.calls.length = 0;
});

function gateway(options: { failures?: number; halfOpenAfterMs?: number; timeoutMs?: number } = {}) {
  const logs: { level: string; msg: string }[] = [];
  const log = createLogger('debug', (line) => logs.push(JSON.parse(line)));
  const changes: CircuitName[] = [];
  const gw = new ModelGateway({
    provider: new AnthropicProvider({ baseUrl: fake.url, apiKey: 'sk-ant-test', model: 'claude-sonnet-4-5' }),
    providerName: 'anthropic',
    timeoutMs: options.timeoutMs ?? 2000,
    breaker: { failures: options.failures ?? 5, halfOpenAfterMs: options.halfOpenAfterMs ?? 10 * SECOND },
    log,
  });
  gw.onCircuitChange((state) => changes.push(state));
  return { gw, logs, changes };
}

/** The outcome of one call: 'ok', or the error code with its Retry-After. */
async function attempt(gw: ModelGateway): Promise<string> {
  try {
    await gw.call(REQUEST);
    return 'ok';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return `${error.code}${error.headers['retry-after'] ? ` retry-after=${error.headers['retry-after']}` : ''}`;
  }
}

const at = (ms: number) => setSystemTime(new Date(T0 + ms));
const secondsOf = (calls: FakeModelServer['calls']) => calls.map((c) => (c.at - T0) / SECOND);

describe('a simulated 60 s outage (500 on every call), one request a second', () => {
  it('sends 10 calls upstream instead of 60: 5 before the circuit opens, then one probe every 10 s', async () => {
    const { gw, changes, logs } = gateway({ failures: 5, halfOpenAfterMs: 10 * SECOND });
    let down = true;
    fake.script = () => (down ? FAIL_500 : ANSWER);
    const outcomes: string[] = [];
    for (let second = 0; second < 60; second++) {
      at(second * SECOND);
      outcomes.push(await attempt(gw));
    }
    expect(outcomes).toHaveLength(60);
    expect(fake.calls).toHaveLength(10);
    expect(secondsOf(fake.calls)).toEqual([0, 1, 2, 3, 4, 14, 24, 34, 44, 54]);
    expect(outcomes.every((o) => o.startsWith('ai_unavailable'))).toBe(true);
    // Refused without a call, the caller is told when the next probe runs.
    expect(outcomes[5]).toBe('ai_unavailable retry-after=9');
    expect(outcomes[13]).toBe('ai_unavailable retry-after=1');
    expect(gw.status()).toMatchObject({ circuit: 'open', consecutiveFailures: 10, counters: { calls: 10, failures: 10, shortCircuited: 50, successes: 0 } });
    expect(gw.status().probeAt).toBe(new Date(T0 + 64 * SECOND).toISOString());

    // The upstream recovers at 60 s: the probe at 64 s succeeds and closes the circuit.
    down = false;
    for (let second = 60; second < 70; second++) {
      at(second * SECOND);
      outcomes.push(await attempt(gw));
    }
    expect(outcomes.slice(60)).toEqual(['ai_unavailable retry-after=4', 'ai_unavailable retry-after=3', 'ai_unavailable retry-after=2', 'ai_unavailable retry-after=1', ...Array(6).fill('ok')]);
    expect(secondsOf(fake.calls).slice(10)).toEqual([64, 65, 66, 67, 68, 69]);
    expect(changes).toEqual(['open', ...Array(5).fill(['half_open', 'open']).flat(), 'half_open', 'closed']);
    expect(gw.status()).toMatchObject({ circuit: 'closed', consecutiveFailures: 0, openedAt: null });
    const messages = logs.map((l) => l.msg);
    expect(messages.filter((m) => m === 'ai circuit opened')).toHaveLength(6);
    expect(messages.filter((m) => m.startsWith('ai circuit half-open'))).toHaveLength(6);
    expect(messages.filter((m) => m === 'ai circuit closed')).toHaveLength(1);
    expect(logs.find((l) => l.msg === 'ai circuit opened')).toMatchObject({ level: 'warn', provider: 'anthropic', model: 'claude-sonnet-4-5', consecutiveFailures: 5, lastFailure: 'anthropic: HTTP 500: Internal server error' });
  });
});

describe('the half-open probe', () => {
  /** Opens the circuit with `failures` 500s at T0, then moves to the probe time. */
  async function openThenProbeTime(gw: ModelGateway, failures: number) {
    fake.script = () => FAIL_500;
    at(0);
    for (let i = 0; i < failures; i++) await attempt(gw);
    expect(gw.status().circuit).toBe('open');
    at(10 * SECOND);
    fake.calls.length = 0;
  }

  it('lets exactly one request upstream while the others wait for its verdict; success lets them through', async () => {
    const { gw } = gateway({ failures: 3 });
    await openThenProbeTime(gw, 3);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.script = (_, index) => (index === 0 ? { ...ANSWER, after: held } : ANSWER);
    const probe = attempt(gw);
    await Bun.sleep(50);
    const waiting = [attempt(gw), attempt(gw), attempt(gw), attempt(gw)];
    await Bun.sleep(100);
    expect(gw.status().circuit).toBe('half_open');
    expect(fake.calls).toHaveLength(1); // only the probe is upstream; four callers wait on it
    release();
    expect(await probe).toBe('ok');
    expect(await Promise.all(waiting)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(fake.calls).toHaveLength(5);
    expect(gw.status().circuit).toBe('closed');
  });

  it('sends one probe when many requests arrive at once, and fails them all fast when it fails', async () => {
    const timed = gateway({ failures: 3, timeoutMs: 200 });
    await openThenProbeTime(timed.gw, 3);
    // Five requests at the probe time: one goes upstream and hangs until the 200 ms timeout; four wait for it.
    fake.script = () => ({ kind: 'hang' });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => attempt(timed.gw)));
    expect(fake.calls).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'ai_unavailable')).toHaveLength(1); // the probe: timed out
    expect(outcomes.filter((o) => o.startsWith('ai_unavailable retry-after='))).toHaveLength(4); // reopened: refused at once
    expect(timed.gw.status()).toMatchObject({ circuit: 'open', counters: { timeouts: 1 } });
  });
});

describe('the per-request timeout', () => {
  it('answers ai_unavailable at the deadline when the model hangs, and counts it toward opening the circuit', async () => {
    const { gw } = gateway({ failures: 2, timeoutMs: 150 });
    fake.script = () => ({ kind: 'hang' });
    const started = performance.now();
    let message = '';
    try {
      await gw.call(REQUEST);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('AI explanations are unavailable: anthropic: no answer within 150 ms');
    expect(performance.now() - started).toBeLessThan(5000); // answered at the deadline, not when the hang ends (never)
    expect(gw.status()).toMatchObject({ circuit: 'closed', consecutiveFailures: 1, counters: { timeouts: 1 } });
    await attempt(gw);
    expect(gw.status().circuit).toBe('open');
    expect(fake.calls).toHaveLength(2);
  });
});

describe('Retry-After on 429', () => {
  it('holds every call until the time the upstream named, then asks again', async () => {
    const { gw } = gateway({ failures: 5 });
    fake.script = () => ({ kind: 'status', status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'rate limited' } }, headers: { 'retry-after': '30' } });
    at(0);
    expect(await attempt(gw)).toBe('ai_unavailable retry-after=30');
    expect(gw.status().heldUntil).toBe(new Date(T0 + 30 * SECOND).toISOString());
    for (const second of [1, 10, 29]) {
      at(second * SECOND);
      expect(await attempt(gw)).toBe(`ai_unavailable retry-after=${30 - second}`);
    }
    expect(fake.calls).toHaveLength(1); // nothing sent while held
    fake.script = () => ANSWER;
    at(30 * SECOND);
    expect(await attempt(gw)).toBe('ok');
    expect(fake.calls).toHaveLength(2);
    expect(gw.status()).toMatchObject({ circuit: 'closed', heldUntil: null, counters: { rateLimited: 1, shortCircuited: 3, successes: 1 } });
  });
});

describe('without a model', () => {
  it('answers ai_unavailable naming what is missing, and reports the circuit disabled', async () => {
    const gw = new ModelGateway({ provider: null, providerName: 'anthropic', unavailableReason: 'no model API key: set ANTHROPIC_API_KEY', timeoutMs: 1000, breaker: { failures: 5, halfOpenAfterMs: 1000 }, log: createLogger('silent') });
    expect(gw.configured).toBe(false);
    expect(await attempt(gw)).toBe('ai_unavailable');
    expect(gw.status()).toMatchObject({ circuit: 'disabled', reason: 'no model API key: set ANTHROPIC_API_KEY', counters: { calls: 0 } });
  });
});

describe('loopback', () => {
  it('sent every model request to loopback and none elsewhere', () => {
    expect(guard.loopbackCalls()).toBeGreaterThan(10);
    expect(guard.offLoopback).toEqual([]);
  });
});
