/**
 * A replay written to the replay ledger: every record marked as a replay's,
 * the chain verifying on its own beside an untouched live chain; a replay
 * interrupted after a chunk resumes where it stopped and ends with exactly the
 * records of one that ran through; and a replay over a few sessions writes
 * what the live pipeline, persisting a run after each of those sessions,
 * writes to the live ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { LedgerRepository } from '../../src/db/repositories/ledger';
import type { ReplayParams } from '../../src/domain/replay';
import { runReplay, type ReplayProgress } from '../../src/jobs/replay/run';
import { storedAs } from '../../src/domain/check';
import { SignalRecordSchema } from '../../src/domain/signal';
import { enteredOutcome, notEnteredOutcome, planOutcome } from '../../src/ledger/outcome-plan';
import { ledgerEntries } from '../../src/ledger/serialize';
import { resolveItem } from '../../workers/outcomes';
import { verifyLedger } from '../../src/ledger/verify';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import type { MarketDataProvider } from '../../src/providers/types';
import { scorecard } from '../../src/modules/transparency/performance';
import { matchedBaseline } from '../../src/jobs/baseline';
import { tradesWhere } from '../../src/ledger/performance';
import { createTestContext, type TestContext } from '../helpers/app';

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'GOOGL', 'AVGO', 'COST', 'JPM', 'XOM', 'LLY', 'KO', 'PEP', 'CAT', 'DE', 'AMD', 'MU', 'NFLX', 'CRM', 'ADBE', 'ORCL', 'INTC', 'CSCO', 'QCOM', 'TXN', 'HD', 'LOW', 'NKE', 'SBUX', 'MCD'];
const PARAMS: ReplayParams = { timeframe: 'daily', from: '2025-09-01', to: '2025-12-31', universe: { kind: 'symbols', symbols: SYMBOLS }, benchmark: 'SPY' };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: createSyntheticProvider({ seed: 42, now: () => Date.UTC(2026, 0, 30, 22) }) });
});
afterAll(() => ctx.close());

const deps = () => ({ ...ctx.services });
const signalRecordOf = storedAs(SignalRecordSchema);

/** Every record of a replay, oldest first, as (kind, signal, body data without what names the run). */
async function contents(ledger: LedgerRepository, replayId: string, params: ReplayParams = PARAMS) {
  const out: { kind: string; signalId: string; data: Record<string, unknown> }[] = [];
  for (let after = 0; ; ) {
    const rows = await ledger.page(after, 5000);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.replayId !== replayId || row.kind === 'replay') continue;
      const { data } = JSON.parse(row.body) as { data: Record<string, unknown> };
      const { replay, runId, ...rest } = data;
      expect(rest.mode).toBe('replay');
      expect(replay).toMatchObject({ id: replayId, source: 'synthetic', timeframe: 'daily', from: params.from, to: params.to, universe: 'symbols', benchmark: 'SPY' });
      if (row.kind !== 'outcome') expect(runId).toBe(replayId);
      out.push({ kind: row.kind, signalId: row.signalId, data: rest });
    }
    after = rows.at(-1)!.seq;
  }
  return out;
}

describe('replays in the replay ledger', () => {
  it('writes a chain of its own, every record marked, that verifies beside an untouched live chain', async () => {
    const progress: ReplayProgress[] = [];
    const run = await runReplay(deps(), PARAMS, { origin: 'test', chunkSessions: 15, onProgress: (p) => progress.push(p) });
    expect(run.status).toBe('done');
    expect(run.sessionsDone).toBe(run.sessionsTotal);
    expect(run.signals).toBeGreaterThan(20);
    expect(progress.length).toBe(Math.ceil(run.sessionsTotal / 15));
    expect(progress.at(-1)!.through).toBe('2025-12-31');
    const replayCheck = await verifyLedger(ctx.services.replayLedger);
    expect(replayCheck.ok).toBe(true);
    expect(replayCheck.count).toBe(run.records);
    expect(replayCheck.checkpoints.verified).toBe(progress.length);
    expect((await ctx.services.ledger.head()).seq).toBe(0);
    const records = await contents(ctx.services.replayLedger, run.id);
    expect(records.filter((r) => r.kind === 'signal').length).toBe(run.signals);
    const surfaced = new Set(records.filter((r) => r.kind === 'signal').map((r) => r.signalId));
    const followUps = records.filter((r) => r.kind !== 'signal');
    expect(followUps.length).toBeGreaterThan(0);
    for (const r of followUps) expect(surfaced.has(r.signalId)).toBe(true);
    const outcomes = records.filter((r) => r.kind === 'outcome');
    expect(new Set(outcomes.map((o) => o.data.outcome))).toEqual(new Set(['win', 'loss', 'scratch']));
    // The run's first record names its parameters and universe, with the survivorship statement.
    const [first] = await ctx.services.replayLedger.page(0, 1);
    expect(first!.kind).toBe('replay');
    const start = JSON.parse(first!.body).data;
    expect(start.params).toEqual(PARAMS);
    expect(start.universe).toMatchObject({ kind: 'symbols', survivorshipBias: true });
    // The same request again finds the finished run.
    expect((await runReplay(deps(), PARAMS, { origin: 'test' })).id).toBe(run.id);
  });

  it('records every outcome as the outcome job computes it from scratch, from the ledger as it stood at the exit', async () => {
    const run = await runReplay(deps(), PARAMS, { origin: 'test' }); // the run of the test before (or a new one when run alone)
    const ledger = ctx.services.replayLedger.forReplay(run.id);
    const { rows } = await ledger.signalRecords({}, 100_000, 0);
    const views = ledgerEntries(rows, await ledger.followUps(rows.map((r) => r.signalId)));
    let checked = 0;
    for (const view of views) {
      if (!view.outcomeRecord) continue;
      const { mode, replay, ...outcome } = view.outcome;
      const recorded: Record<string, unknown> = outcome;
      const record = signalRecordOf(view.signal, 'replayed signal');
      const exitAt = String(recorded.exitAt);
      const planned = planOutcome(record, view.events.filter((e) => e.at <= exitAt));
      expect(planned).not.toBeNull();
      if ('notEntered' in planned!) {
        expect(recorded).toEqual(notEnteredOutcome(planned.notEntered));
      } else {
        const bars = await ctx.services.marketData.bars(record.symbol, 'daily');
        const resolved = resolveItem(planned!.item, bars, bars.ts.findLastIndex((ts) => ts <= Date.parse(exitAt)));
        expect('result' in resolved && resolved.result.outcome).not.toBe('open');
        if ('result' in resolved) expect(recorded).toEqual(enteredOutcome(planned!.item, resolved.result));
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("judges the replay's closed trades against both matched baselines on its scorecard, with cluster intervals and an edge statement", async () => {
    const card = await scorecard(ctx.services, { source: 'replay' });
    const { record } = card.calibration;
    expect(record.ledger).toBe('replay');
    expect(record.matches).toBe(5);
    const { all } = record;
    expect(all.trades).toBeGreaterThan(0);
    expect(all.trades).toBeLessThanOrEqual(card.allTime.closed);
    for (const baseline of [all.sameDay, all.yearMatched]) {
      expect(baseline.draws).toBeGreaterThan(0);
      expect(baseline.draws).toBeLessThanOrEqual(5 * all.trades);
      expect(baseline.lift.value!).toBeCloseTo(all.priceHitRate.value! - baseline.hitRate!, 3);
      expect(baseline.lift.lower!).toBeLessThanOrEqual(baseline.lift.value!);
      expect(baseline.lift.upper!).toBeGreaterThanOrEqual(baseline.lift.value!);
    }
    expect(all.hitRate.lower!).toBeLessThanOrEqual(all.hitRate.value!);
    expect(all.meanR.upper!).toBeGreaterThanOrEqual(all.meanR.value!);
    const groups = Object.values(record.byDirection);
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.reduce((s, g) => s + g.trades, 0)).toBe(all.trades);
    expect(Object.values(record.byBand).reduce((s, g) => s + g.sameDay.draws, 0)).toBe(all.sameDay.draws);
    expect(Object.values(record.byYear).reduce((s, g) => s + g.trades, 0)).toBe(all.trades);
    expect(Object.values(record.byRegime).reduce((s, g) => s + g.trades, 0)).toBe(all.trades);
    expect(card.edge.ledger).toBe('replay');
    expect(card.edge.statement.length).toBeGreaterThan(20);
    expect(card.alertPolicy.byReason.regime!.kind).toBe('risk rule');
    // The same draws as both baselines of the records' own trades, computed here in this thread over bars read through the market data (jobs/baseline).
    const trades = (await tradesWhere(ctx.services.replayLedger.forReplay(card.replay!.id), {})).filter((t) => t.levels !== null && t.timeframe === 'daily');
    const reference = await matchedBaseline(ctx.services.marketData, trades.map((t) => ({ symbol: t.symbol, direction: t.direction as 'long' | 'short', ...t.levels! })), { symbols: SYMBOLS, matches: 5 });
    const sum = (key: 'baseN' | 'baseHits' | 'sameN' | 'sameHits') => reference.reduce((n, r) => n + r[key], 0);
    expect(all.yearMatched.draws).toBe(sum('baseN'));
    expect(all.sameDay.draws).toBe(sum('sameN'));
    expect(all.yearMatched.hitRate!).toBeCloseTo(sum('baseHits') / sum('baseN'), 4);
    expect(all.sameDay.hitRate!).toBeCloseTo(sum('sameHits') / sum('sameN'), 4);
    expect(all.priced).toBe(reference.filter((r) => r.priceHit !== null).length);
  });

  it('resumes an interrupted replay where it stopped, ending with the records of one that ran through', async () => {
    const params: ReplayParams = { ...PARAMS, from: '2025-10-01', to: '2025-11-28' };
    const stop = new AbortController();
    const first = await runReplay(deps(), params, { origin: 'test', chunkSessions: 10, signal: stop.signal, onProgress: (p) => p.sessionsDone >= 20 && stop.abort() });
    expect(first.status).toBe('running');
    expect(first.sessionsDone).toBe(20);
    expect(first.sessionsDone).toBeLessThan(first.sessionsTotal);
    // It recomputes from its stored books (none yet: the first store is 30 s in) and skips what it wrote.
    expect(first).toMatchObject({ booksThrough: 0, entriesSinceBooks: first.records - 1 });
    const seen: number[] = [];
    const resumed = await runReplay(deps(), params, { origin: 'test', chunkSessions: 10, onProgress: (p) => seen.push(p.resumedAt) });
    expect(resumed.id).toBe(first.id);
    expect(resumed.status).toBe('done');
    expect(new Set(seen)).toEqual(new Set([0]));
    const through = await runReplay(deps(), params, { origin: 'test', chunkSessions: 10, fresh: true });
    expect(through.id).not.toBe(first.id);
    const a = await contents(ctx.services.replayLedger, resumed.id, params);
    const b = await contents(ctx.services.replayLedger, through.id, params);
    expect(a.length).toBeGreaterThan(30);
    expect(a).toEqual(b);
    expect(resumed.records).toBe(through.records);
    expect((await verifyLedger(ctx.services.replayLedger)).ok).toBe(true);
  });

  it('stopped mid-chunk, a slice after it began writing, resumes from its stored books and skips exactly what it wrote', async () => {
    const params: ReplayParams = { ...PARAMS, from: '2025-09-15', to: '2025-11-14' };
    const stop = new AbortController();
    let afterBooks = -1;
    const counting = Object.assign(Object.create(ctx.services.replays) as typeof ctx.services.replays, {
      storeBooks: async (...args: Parameters<typeof ctx.services.replays.storeBooks>) => {
        await ctx.services.replays.storeBooks(...args);
        afterBooks = 0;
      },
      commitSlice: (...args: Parameters<typeof ctx.services.replays.commitSlice>) => {
        if (afterBooks >= 0 && ++afterBooks === 2) stop.abort(); // the second slice of the chunk after the first books
        return ctx.services.replays.commitSlice(...args);
      },
    });
    const options = { origin: 'test', chunkSessions: 10, sliceRecords: 40, booksEveryMs: 0 };
    const first = await runReplay({ ...deps(), replays: counting }, params, { ...options, signal: stop.signal });
    expect(first.status).toBe('running');
    expect(first.booksThrough).toBeGreaterThan(0);
    expect(first.entriesSinceBooks).toBeGreaterThan(0);
    expect(first.sessionsDone).toBe(first.booksThrough); // the chunk under way when it stopped is not done
    const resumed = await runReplay(deps(), params, options);
    const through = await runReplay(deps(), params, { ...options, fresh: true });
    expect(await contents(ctx.services.replayLedger, resumed.id, params)).toEqual(await contents(ctx.services.replayLedger, through.id, params));
    expect(resumed.records).toBe(through.records);
    expect(await ctx.services.replays.books(resumed.id)).toEqual({}); // dropped once done
  });
});

describe('a replay against the live pipeline', () => {
  it('writes what persisting a live run after each session writes', async () => {
    let clock = Date.UTC(2025, 10, 3, 22); // Monday 2025-11-03, after the close
    const synthetic = createSyntheticProvider({ seed: 5, now: () => clock });
    const universe = (await synthetic.universe()).filter((i) => i.symbol === 'SPY' || SYMBOLS.includes(i.symbol));
    const provider: MarketDataProvider = Object.assign(Object.create(synthetic), { universe: async () => universe });
    const live = await createTestContext({ env: { BARS_CACHE_TTL_SECONDS: '0' }, provider });
    const replayed = await createTestContext({ provider });
    try {
      const days: string[] = [];
      for (let k = 0; k < 12; k++) {
        const day = new Date(clock).toISOString().slice(0, 10);
        const weekday = new Date(clock).getUTCDay();
        if (weekday !== 0 && weekday !== 6) {
          await live.services.runs.persist('daily');
          days.push(day);
        }
        clock += 86_400_000;
      }
      const run = await runReplay({ ...replayed.services }, { timeframe: 'daily', from: days[0]!, to: days.at(-1)!, universe: { kind: 'default' }, benchmark: 'SPY' }, { origin: 'test', chunkSessions: 4 });
      expect(run.sessionsTotal).toBe(days.length);
      const view = async (ledger: LedgerRepository) => {
        const { rows } = await ledger.signalRecords({}, 10_000, 0);
        const entries = ledgerEntries(rows, await ledger.followUps(rows.map((r) => r.signalId)));
        return entries
          .map((e) => {
            const { runId, source, mode, replay, components, geometry, rsRank, avgDollarVolume, distancePct, breakoutVolumeRatio, alert, ...signal } = e.signal;
            const { replay: _, mode: __, ...outcome } = e.outcome;
            return { signal, state: e.state, events: e.events.map(({ from, to, price, at }) => ({ from, to, price, at })), outcome };
          })
          .sort((x, y) => String(x.signal.id).localeCompare(String(y.signal.id)));
      };
      const liveView = await view(live.services.ledger);
      const replayView = await view(replayed.services.replayLedger.forReplay(run.id));
      expect(liveView.length).toBeGreaterThan(10);
      expect(replayView).toEqual(liveView);
      expect(liveView.some((e) => e.events.length > 0)).toBe(true);
    } finally {
      await live.close();
      await replayed.close();
    }
  });
});

describe('the size of a replay slice', () => {
  it('moves halfway towards what fits in a slice of the thread, within its bounds', async () => {
    const { SliceSize } = await import('../../src/jobs/replay/run');
    const { SLICE_MS } = await import('../../workers/slice');
    const size = new SliceSize(100);
    size.took(100, SLICE_MS * 4); // four times too long: 25 would fit
    expect(size.size).toBe(Math.round((100 + 25) / 2));
    size.took(size.size, 0.1); // very quick: capped at ten times the start
    expect(size.size).toBe(1000);
    size.took(5, 1000); // a short slice (a chunk's last) says nothing
    expect(size.size).toBe(1000);
    for (let i = 0; i < 20; i++) size.took(size.size, 10_000);
    expect(size.size).toBe(10); // never below the floor
  });
});
