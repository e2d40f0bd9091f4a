/**
 * Alert rules end to end: a persisted scan run whose signal matches a rule
 * fires it exactly once (one dispatch, one notification, one
 * `alerts.dispatched` event), also when two instances evaluate the same
 * signals; the webhook receiver on loopback gets a body whose Standard
 * Webhooks signature verifies with an independent implementation (the
 * `standardwebhooks` package); a failing receiver is retried with backoff and
 * every attempt logged, and a receiver that does not answer never holds up
 * the scan. With DATABASE_URL the second instance is a second set of services
 * on the same PostgreSQL database (CI's PostgreSQL+Redis pass); on PGlite it
 * is a second dispatcher and bus over the one embedded database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { AlertDispatchesRepository } from '../../src/db/repositories/alert-dispatches';
import type { Signal } from '../../src/domain/signal';
import { AlertRuleDispatcher, ruleMatches } from '../../src/jobs/alert-rules';
import { backoffBefore } from '../../src/background/webhooks';
import type { DeliveryPage, RuleSchema } from '../../src/modules/alerts/model';
import type { NotificationPage } from '../../src/modules/notifications/model';
import { createServices, type Services } from '../../src/services';
import { StreamEventsRepository } from '../../src/db/repositories/stream-events';
import { DurableBus, type BusEvents } from '../../src/stream/bus';
import { createLogger } from '../../src/log';
import { createTestContext, usingPostgres, type TestContext } from '../helpers/app';
import { as, send, sessionCookie } from '../helpers/account';
import { smallMarket } from '../helpers/small-market';
import { until } from '../helpers/until';
import { TEST_CA_FILE, webhookReceiver } from '../helpers/webhook-receiver';

type Dispatched = BusEvents['alerts.dispatched'];

let ctx: TestContext;
let signals: Signal[];
let cookie: string;
const env = { ALERT_WEBHOOK_ALLOW_PRIVATE: 'true', ALERT_WEBHOOK_CA_FILE: TEST_CA_FILE, ALERT_WEBHOOK_BACKOFF_SECONDS: '0.05', ALERT_WEBHOOK_MAX_ATTEMPTS: '3', ALERT_WEBHOOK_TIMEOUT_MS: '3000' };

beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(40), env });
  // What the next persisted run will list: the same scan, not persisted.
  signals = (await ctx.services.signals.scan('daily', Date.now())).signals;
  cookie = await sessionCookie(ctx, 'trader', 'pro');
});
afterAll(() => ctx.close());

/** A rule body that matches `signal` exactly (its symbol, pattern, direction and state). */
const ruleFor = (signal: Signal, extra: Record<string, unknown> = {}) => ({
  name: `${signal.symbol} ${signal.patternType}`,
  symbols: [signal.symbol],
  patternTypes: [signal.patternType],
  direction: signal.direction,
  states: [signal.breakoutState],
  cooldownMinutes: 0,
  ...extra,
});

function collect(services: Services): Dispatched[] {
  const events: Dispatched[] = [];
  services.bus.subscribe('alerts.dispatched', (e) => events.push(e));
  return events;
}

describe('alert rules fired by persisted scan runs', () => {
  let rule: RuleSchema;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let events: Dispatched[];
  let expected: Signal[];

  beforeAll(async () => {
    expect(signals.length).toBeGreaterThan(0);
    receiver = await webhookReceiver();
    const target = signals[0]!;
    const created = await ctx.json<RuleSchema>('/api/alerts/v2', send('POST', ruleFor(target, { channels: { inApp: true, webhook: { url: receiver.url } } }), { cookie }));
    expect(created.status).toBe(201);
    rule = created.body;
    expected = signals.filter((s) => s.symbol === target.symbol && s.patternType === target.patternType && s.direction === target.direction && s.breakoutState === target.breakoutState);
    events = collect(ctx.services);
    await ctx.services.runs.persist('daily');
    await ctx.services.account.webhooks.kick();
  });
  afterAll(() => receiver.stop());

  it('fires once per matching signal: one dispatch, one notification and one alerts.dispatched event each', async () => {
    expect(expected.length).toBeGreaterThan(0);
    const persisted = (await ctx.services.runs.current('daily')).view.signals;
    expect(persisted.map((s) => s.id)).toEqual(signals.map((s) => s.id));
    expect(events.map((e) => e.signalId).sort()).toEqual(expected.map((s) => s.id).sort());
    for (const e of events) {
      expect(e).toMatchObject({ symbol: expected[0]!.symbol, ruleId: rule.id, userId: 'trader', rule: { id: rule.id, name: rule.name } });
      expect(e.alertId).toMatch(/^alr_/);
      expect(Date.parse(e.at)).not.toBeNaN();
    }
    const notes = await ctx.json<NotificationPage>('/api/notifications', as(cookie));
    expect(notes.body.items.map((n) => n.alertId).sort()).toEqual(events.map((e) => e.alertId).sort());
    expect(notes.body.unreadCount).toBe(expected.length);
    expect(notes.body.items[0]).toMatchObject({ kind: 'alert', rule: { id: rule.id, name: rule.name }, symbol: expected[0]!.symbol, readAt: null });
  });

  it('does not fire again when a later run lists the same signals', async () => {
    const before = events.length;
    await ctx.services.runs.persist('daily');
    expect(events.length).toBe(before);
    expect((await ctx.json<NotificationPage>('/api/notifications', as(cookie))).body.items).toHaveLength(before);
  });

  it('delivers a body whose Standard Webhooks signature verifies on the receiver', async () => {
    expect(receiver.received).toHaveLength(expected.length);
    const secret = rule.channels.webhook!.secret!;
    for (const hit of receiver.received) {
      const verified = new Webhook(secret).verify(hit.body, hit.headers) as { type: string; data: Dispatched & { signal: Signal } };
      expect(verified.type).toBe('alerts.dispatched');
      expect(verified.data.ruleId).toBe(rule.id);
      expect(events.map((e) => e.alertId)).toContain(verified.data.alertId);
      expect(hit.headers['webhook-id']).toMatch(/^whd_/);
      expect(() => new Webhook(secret).verify(hit.body.replace('alerts.dispatched', 'alerts.forged'), hit.headers)).toThrow();
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(hit.body, hit.headers)).toThrow();
    }
    const log = await ctx.json<DeliveryPage>(`/api/alerts/v2/${rule.id}/deliveries`, as(cookie));
    expect(log.body.items).toHaveLength(expected.length);
    expect(log.body.items[0]).toMatchObject({ status: 'delivered', attempts: 1, nextAttemptAt: null });
    expect(log.body.items[0]!.attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 204, error: null })]);
  });
});

describe('a failing or silent webhook receiver', () => {
  it('is retried with backoff until it answers 2xx, every attempt logged', async () => {
    const receiver = await webhookReceiver((n) => (n <= 2 ? 503 : 200));
    try {
      const signal = signals[1] ?? signals[0]!;
      const user = await sessionCookie(ctx, 'retry-user', 'pro');
      const created = await ctx.json<RuleSchema>('/api/alerts/v2', send('POST', ruleFor(signal, { channels: { inApp: false, webhook: { url: receiver.url } } }), { cookie: user }));
      const { dispatcher } = ctx.services.account;
      const written = await dispatcher.evaluate('run_retrytest0000000000', { ...fakeRun(), signals: [signal] });
      expect(written).toHaveLength(1);
      const deliveries = async () => (await ctx.json<DeliveryPage>(`/api/alerts/v2/${created.body.id}/deliveries`, as(user))).body.items;
      for (let i = 0; i < 200 && (await deliveries())[0]?.status !== 'delivered'; i++) await Bun.sleep(25);
      const [delivery] = await deliveries();
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 3 });
      expect(delivery!.attemptLog.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [1, 503, 'HTTP 503'],
        [2, 503, 'HTTP 503'],
        [3, 200, null],
      ]);
      // One delivery (the same webhook-id on every retry), a fresh timestamp and signature on each attempt.
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(Array(3).fill(delivery!.id));
      for (const hit of receiver.received) new Webhook(created.body.channels.webhook!.secret!).verify(hit.body, hit.headers);
    } finally {
      receiver.stop();
    }
  });

  it('gives up after the last attempt and says why each failed', async () => {
    const user = await sessionCookie(ctx, 'refused-user', 'pro');
    const signal = signals[0]!;
    const dead = 'https://127.0.0.1:1/hook'; // nothing listens on port 1
    const created = await ctx.json<RuleSchema>('/api/alerts/v2', send('POST', ruleFor(signal, { channels: { inApp: false, webhook: { url: dead } } }), { cookie: user }));
    await ctx.services.account.dispatcher.evaluate('run_deadreceiver00000000', { ...fakeRun(), signals: [signal] });
    const deliveries = async () => (await ctx.json<DeliveryPage>(`/api/alerts/v2/${created.body.id}/deliveries`, as(user))).body.items;
    for (let i = 0; i < 200 && (await deliveries())[0]?.status !== 'failed'; i++) await Bun.sleep(25);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
    expect(delivery!.attemptLog).toHaveLength(3);
    for (const attempt of delivery!.attemptLog) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error!.length).toBeGreaterThan(0);
    }
  });

  it('never holds up the scan: the run is persisted while the receiver still has not answered', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<number>();
    const receiver = await webhookReceiver(() => released);
    const fresh = await createTestContext({ provider: await smallMarket(40), env });
    try {
      const user = await sessionCookie(fresh, 'patient', 'pro');
      const created = await fresh.json<RuleSchema>('/api/alerts/v2', send('POST', ruleFor(signals[0]!, { channels: { webhook: { url: receiver.url } } }), { cookie: user }));
      expect(created.status).toBe(201);
      const runId = await fresh.services.runs.persist('daily');
      expect(runId).toMatch(/^run_/);
      // The scan finished and its alert was written while the receiver holds its answer back.
      for (let i = 0; i < 200 && receiver.received.length === 0; i++) await Bun.sleep(10);
      expect(receiver.received.length).toBeGreaterThan(0);
      const pending = (await fresh.json<DeliveryPage>(`/api/alerts/v2/${created.body.id}/deliveries`, as(user))).body.items;
      expect(pending.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
      expect((await fresh.json<NotificationPage>('/api/notifications', as(user))).body.items.length).toBeGreaterThan(0);
      release(200);
      await fresh.services.account.webhooks.kick();
    } finally {
      release(200);
      await fresh.close();
      receiver.stop();
    }
  });
});

describe(usingPostgres ? 'two instances on one PostgreSQL database' : 'two dispatchers on one embedded database', () => {
  it('fires a rule once for a signal whichever instance evaluates it, also at the same moment', async () => {
    const user = await sessionCookie(ctx, 'twin-user', 'pro');
    const signal = signals[signals.length - 1]!;
    const created = await ctx.json<RuleSchema>('/api/alerts/v2', send('POST', ruleFor(signal), { cookie: user }));
    expect(created.status).toBe(201);
    const other = usingPostgres ? await createServices(ctx.config, { provider: await smallMarket(40), log: createLogger('silent'), pgliteDir: ':memory:' }) : undefined;
    const instances = [ctx.services, other ?? ctx.services];
    // A bus of each dispatcher's own over its database's log: an event fired anywhere reaches both.
    const buses = instances.map((s) => new DurableBus({ log: new StreamEventsRepository(s.database.db), logger: createLogger('silent'), keep: { events: 1000, ms: 60_000 }, pollMs: { steady: 20, outage: 20 } }));
    const events: Dispatched[][] = buses.map(() => []);
    for (const [i, bus] of buses.entries()) {
      bus.subscribe('alerts.dispatched', (e) => events[i]!.push(e));
      await bus.open(0, 0);
    }
    const dispatchers = instances.map(
      (s, i) =>
        new AlertRuleDispatcher({ rules: s.account.alertRules, watchlists: s.account.watchlists, dispatches: new AlertDispatchesRepository(s.database.db, new StreamEventsRepository(s.database.db)), bus: buses[i]!, webhooks: s.account.webhooks, log: createLogger('silent') }),
    );
    try {
      const run = { ...fakeRun(), signals: [signal] };
      const written = await Promise.all(dispatchers.map((d, i) => d.evaluate(`run_twin${i}0000000000000000`, run)));
      expect(written.flat()).toHaveLength(1);
      const again = await Promise.all(dispatchers.map((d, i) => d.evaluate(`run_twinagain${i}00000000000`, run)));
      expect(again.flat()).toHaveLength(0);
      // Once on each bus (the log is shared; the other bus reads it at its next poll).
      await until('the event on both buses', () => events.every((on) => on.some((e) => e.ruleId === created.body.id)));
      for (const on of events) expect(on.filter((e) => e.ruleId === created.body.id)).toHaveLength(1);
      const notes = await ctx.json<NotificationPage>('/api/notifications', as(user));
      expect(notes.body.items.filter((n) => n.rule.id === created.body.id)).toHaveLength(1);
      if (other) {
        // The second instance persists a run of its own over the same signals: nothing fires twice.
        const seen = collect(other);
        await other.runs.persist('daily');
        expect(seen.filter((e) => e.ruleId === created.body.id)).toHaveLength(0);
      }
    } finally {
      for (const bus of buses) await bus.close();
      await other?.close();
    }
  });
});

describe('webhook backoff', () => {
  it('doubles the wait before each retry from the configured base, up to six hours', () => {
    expect([2, 3, 4, 5, 6].map((n) => backoffBefore(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(backoffBefore(30, 30_000)).toBe(6 * 3_600_000);
  });
});

describe('rule matching', () => {
  const base = () => signals[0]!;
  const rule = (over: Partial<Parameters<typeof ruleMatches>[0]> = {}): Parameters<typeof ruleMatches>[0] => ({
    id: 'rul_x', userId: 'u', name: 'r', symbols: [base().symbol], watchlistId: null, patternTypes: null, minBand: null, minScore: null, timeframe: 'daily', direction: 'any',
    states: [base().breakoutState], cooldownMinutes: 0, inApp: true, webhookUrl: null, webhookSecret: null, enabled: true, createdAt: new Date(), updatedAt: new Date(), ...over,
  });
  const watched = () => new Set([base().symbol]);

  it('matches on every criterion and fails on each one alone', () => {
    const s = base();
    expect(ruleMatches(rule(), watched(), s)).toBe(true);
    expect(ruleMatches(rule(), new Set(['NOPE']), s)).toBe(false);
    expect(ruleMatches(rule({ timeframe: '4h' }), watched(), s)).toBe(false);
    expect(ruleMatches(rule({ patternTypes: [s.patternType] }), watched(), s)).toBe(true);
    expect(ruleMatches(rule({ patternTypes: [s.patternType === 'vcp' ? 'flat_base' : 'vcp'] }), watched(), s)).toBe(false);
    expect(ruleMatches(rule({ direction: s.direction }), watched(), s)).toBe(true);
    expect(ruleMatches(rule({ direction: s.direction === 'long' ? 'short' : 'long' }), watched(), s)).toBe(false);
    expect(ruleMatches(rule({ states: ['expired'] }), watched(), { ...s, breakoutState: 'triggered' })).toBe(false);
    expect(ruleMatches(rule({ minScore: s.finalScore }), watched(), s)).toBe(true);
    expect(ruleMatches(rule({ minScore: s.finalScore + 0.01 }), watched(), s)).toBe(false);
  });

  it('reads the band order elite > strong > watchlist > ignore', () => {
    const strong = { ...base(), scoreBand: 'strong' as const };
    expect(ruleMatches(rule({ minBand: 'watchlist' }), watched(), strong)).toBe(true);
    expect(ruleMatches(rule({ minBand: 'strong' }), watched(), strong)).toBe(true);
    expect(ruleMatches(rule({ minBand: 'elite' }), watched(), strong)).toBe(false);
  });

  it('holds the cooldown per rule and symbol: a second signal of the symbol stays quiet within it', async () => {
    const user = await sessionCookie(ctx, 'cool-user', 'pro');
    const s = base();
    const twin: Signal = { ...s, id: `${s.symbol}-vcp-2001-01-01T00:00:00.000Z`, patternType: 'vcp', detectedAt: '2001-01-01T00:00:00.000Z' };
    const created = await ctx.json<RuleSchema>('/api/alerts/v2', send('POST', { name: 'cool', symbols: [s.symbol], states: [s.breakoutState], cooldownMinutes: 30 }, { cookie: user }));
    const written = await ctx.services.account.dispatcher.evaluate('run_cooldown000000000000', { ...fakeRun(), signals: [s, twin] });
    expect(written.filter((w) => w.dispatch.ruleId === created.body.id).map((w) => w.dispatch.signalId)).toEqual([s.id]);
  });
});

/** A scan result around given signals (the dispatcher reads timeframe, asOf and signals). */
function fakeRun() {
  return {
    timeframe: 'daily' as const,
    asOf: '2026-11-20T00:00:00.000Z',
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: 1,
    symbolsScanned: 1,
    regime: null,
    signals: [] as Signal[],
    staleSeries: [],
  } as unknown as Parameters<AlertRuleDispatcher['evaluate']>[1];
}
