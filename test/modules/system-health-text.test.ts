/**
 * The fast path's health answer (`healthText`) is the very bytes of
 * `JSON.stringify` of the ordinary one (`health`) at the same instant: for
 * rounds ok, degraded and down (503), messages with quotes and non-ASCII, the
 * explanation model's circuit changing between answers, a new round, and
 * none while the last round is stale.
 */
import { describe, expect, it } from 'bun:test';
import type { AiStatus } from '../../src/ai';
import type { HealthSnapshot } from '../../src/jobs/health';
import { health, healthText, type HealthSources } from '../../src/modules/system/service';

const CHECKED_AT = Date.UTC(2026, 10, 20, 18, 0, 0, 123);

const ai = (over: Partial<AiStatus> = {}): AiStatus => ({
  provider: 'anthropic',
  model: 'claude',
  circuit: 'closed',
  reason: null,
  consecutiveFailures: 0,
  lastFailure: null,
  openedAt: null,
  probeAt: null,
  heldUntil: null,
  counters: { calls: 0, successes: 0, failures: 0, timeouts: 0, rateLimited: 0, shortCircuited: 0 },
  ...over,
});

function sources(round: HealthSnapshot | undefined, status: () => AiStatus = () => ai()): HealthSources & { round: HealthSnapshot | undefined } {
  const self = {
    round,
    health: {
      get last() {
        return self.round;
      },
      refresh: async () => self.round!,
    },
    config: { healthCheckIntervalSeconds: 10 },
    startedAt: CHECKED_AT - 3_600_500,
    explainer: { status },
  };
  return self;
}

const ok: HealthSnapshot = {
  checks: { db: 'ok', dataAdapter: 'ok', env: 'warn', kv: 'ok', pool: 'ok', bus: 'ok' },
  details: {
    db: { status: 'ok', latencyMs: 7.68 },
    dataAdapter: { status: 'ok', latencyMs: 4.16 },
    env: { status: 'warn', latencyMs: 0, message: 'serving synthetic market data (provider synthetic)' },
    kv: { status: 'ok', latencyMs: 3 },
    pool: { status: 'ok', latencyMs: 0.01 },
    bus: { status: 'ok', latencyMs: 0.2 },
  },
  checkedAt: CHECKED_AT,
};
const degraded: HealthSnapshot = {
  checks: { ...ok.checks, kv: 'degraded' },
  details: { ...ok.details, kv: { status: 'degraded', latencyMs: 1000.5, message: 'redis unreachable ("ECONNREFUSED"); requests are limited in-process — per instance' } },
  checkedAt: CHECKED_AT + 10_000,
};
const down: HealthSnapshot = {
  checks: { ...ok.checks, db: 'down' },
  details: { ...ok.details, db: { status: 'down', latencyMs: 2000, message: 'no answer within 2000 ms\n\ttab \\ backslash' } },
  checkedAt: CHECKED_AT + 20_000,
};

async function expectSame(services: HealthSources, text: ReturnType<typeof healthText>, now: number) {
  const fast = text(now);
  const ordinary = await health(services, now);
  expect(fast).not.toBeNull();
  expect(fast!.httpStatus).toBe(ordinary.httpStatus);
  expect(fast!.text).toBe(JSON.stringify(ordinary.body));
}

describe('healthText, the serialised health answer', () => {
  it('is the same bytes as the ordinary answer, round after round, the clock and the model circuit moving', async () => {
    let circuit = ai();
    const services = sources(ok, () => circuit);
    const text = healthText(services);
    for (const now of [CHECKED_AT, CHECKED_AT + 1, CHECKED_AT + 1, CHECKED_AT + 999, CHECKED_AT + 29_999]) await expectSame(services, text, now);
    circuit = ai({ circuit: 'open', openedAt: '2026-11-20T18:00:01.000Z', probeAt: '2026-11-20T18:00:31.000Z', consecutiveFailures: 3, lastFailure: 'anthropic: 529 "overloaded"' });
    await expectSame(services, text, CHECKED_AT + 5_000);
    circuit = ai({ provider: 'off', model: null, circuit: 'disabled', reason: 'no language model is configured (AI_PROVIDER=off)' });
    await expectSame(services, text, CHECKED_AT + 5_001);
    services.round = degraded;
    await expectSame(services, text, CHECKED_AT + 10_001);
    services.round = down;
    await expectSame(services, text, CHECKED_AT + 20_002);
    expect(text(CHECKED_AT + 20_002)!.httpStatus).toBe(503);
  });

  it('follows every change of the model status it shows (its text is kept while they stay the same)', async () => {
    const open = { circuit: 'open', openedAt: '2026-11-20T18:00:01.000Z', probeAt: '2026-11-20T18:00:31.000Z', consecutiveFailures: 3, lastFailure: 'timeout' } as const;
    const changes: Partial<AiStatus>[] = [
      {},
      { counters: { calls: 9, successes: 5, failures: 4, timeouts: 1, rateLimited: 0, shortCircuited: 2 } }, // not shown: the same text
      { provider: 'openai' },
      { model: 'claude-2' },
      { openedAt: '2026-11-20T18:00:02.000Z' },
      { probeAt: '2026-11-20T18:00:32.000Z' },
      { consecutiveFailures: 4 },
      { lastFailure: 'anthropic: 529' },
      { circuit: 'half_open' },
      { circuit: 'closed', heldUntil: '2026-11-20T18:01:00.000Z' },
      { circuit: 'closed' },
      { circuit: 'disabled', reason: 'no key' },
      { circuit: 'disabled', reason: 'no endpoint' },
    ];
    let status = ai(open);
    const services = sources(ok, () => status);
    const text = healthText(services);
    const texts: string[] = [];
    for (const change of changes) {
      status = ai({ ...open, ...change });
      await expectSame(services, text, CHECKED_AT + 1);
      texts.push(text(CHECKED_AT + 1)!.text);
    }
    expect(texts.length).toBe(changes.length);
    expect(new Set(texts).size).toBe(changes.length - 1); // every change shown but the counters'
    // Within one millisecond and no change, the same answer again; the next millisecond, a new one.
    expect(text(CHECKED_AT + 1)).toBe(text(CHECKED_AT + 1)!);
    expect(text(CHECKED_AT + 2)!.text).not.toBe(texts.at(-1)!);
  });

  it('answers nothing before the first round or from a stale one (the ordinary path runs a round)', () => {
    expect(healthText(sources(undefined))(CHECKED_AT)).toBeNull();
    const text = healthText(sources(ok));
    expect(text(CHECKED_AT + 30_000)).not.toBeNull();
    expect(text(CHECKED_AT + 30_001)).toBeNull();
  });
});
