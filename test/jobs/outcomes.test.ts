/**
 * The outcome resolution job end to end: hand-written ledger signals over
 * hand-built daily bars (a csv provider in a temp dir), resolved in the pool
 * and appended to the ledger once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOutcomes } from '../../src/jobs/outcomes';
import { verifyLedger } from '../../src/ledger/verify';
import type { LedgerResponse } from '../../src/modules/transparency/model';
import { createCsvProvider } from '../../src/providers/csv';
import { createTestContext, type TestContext } from '../helpers/app';

const DAYS = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08'];
const at = (i: number) => `${DAYS[i]}T00:00:00.000Z`;

/** Bars after day 0, as [open, high, low, close]; day 0 closes at 100 (98 for the forming ones). */
const PATHS: Record<string, [number, number, number, number][]> = {
  WIN: [[100, 104, 99, 103], [103, 111, 101, 109], [109, 109, 96, 97], [97, 97, 90, 91]],
  LOSS: [[100, 102, 94, 96], [96, 115, 96, 114], [114, 114, 113, 113], [113, 113, 112, 112]],
  BOTH: [[100, 111, 94, 100], [100, 101, 99, 100], [100, 101, 99, 100], [100, 101, 99, 100]],
  GAP: [[93, 94, 92, 93], [93, 94, 92, 93], [93, 94, 92, 93], [93, 94, 92, 93]],
  OPEN: [[100, 104, 97, 103], [103, 108, 101, 104], [104, 107, 96, 99], [99, 103, 98, 102]],
  FORM: [[99, 101.5, 98, 101], [101, 110.5, 100, 110], [110, 111, 109, 110], [110, 111, 109, 110]],
  NEVER: [[98, 99, 96, 97], [97, 98, 93, 94], [94, 95, 93, 94], [94, 95, 93, 94]],
  SCR: [[100, 103, 99, 102], [102, 102, 98.5, 99], [99, 100, 98, 99], [99, 100, 98, 99]],
};

let ctx: TestContext;
const dir = mkdtempSync(join(tmpdir(), 'breakline-outcomes-'));

function signal(symbol: string, state: string, price: number) {
  return {
    kind: 'signal' as const,
    signalId: `${symbol}-flat_base-${at(0)}`,
    patternType: 'flat_base',
    scoreBand: 'strong',
    finalScore: 75,
    detectedAt: new Date(at(0)),
    data: { id: `${symbol}-flat_base-${at(0)}`, symbol, timeframe: 'daily', patternType: 'flat_base', direction: 'long', detectedAt: at(0), surfacedAt: at(0), state, triggerPrice: 100, target1: 110, stopLoss: 95, finalScore: 75, scoreBand: 'strong', priceAtDetection: price },
  };
}
const event = (symbol: string, from: string, to: string, price: number, day: number) => ({
  kind: 'event' as const,
  signalId: `${symbol}-flat_base-${at(0)}`,
  data: { from, to, price, at: at(day), runId: 'run_test' },
});

beforeAll(async () => {
  for (const [symbol, path] of Object.entries(PATHS)) {
    const first = symbol === 'FORM' || symbol === 'NEVER' ? [97, 99, 96, 98] : [99, 101, 98, 100];
    const rows = [first, ...path].map((b, i) => `${DAYS[i]},${b.join(',')},1000000`);
    writeFileSync(join(dir, `${symbol}.csv`), ['Date,Open,High,Low,Close,Volume', ...rows].join('\n') + '\n');
  }
  ctx = await createTestContext({ provider: createCsvProvider({ dir }) });
  const { ledger } = ctx.services;
  await ledger.append([
    ...['WIN', 'LOSS', 'BOTH', 'GAP', 'OPEN', 'SCR'].map((s) => signal(s, 'triggered', 100)),
    signal('FORM', 'forming', 98),
    signal('NEVER', 'forming', 98),
    event('FORM', 'forming', 'triggered', 101, 1),
    event('NEVER', 'forming', 'expired', 94, 2),
    event('SCR', 'triggered', 'failed', 99, 2),
  ]);
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The outcome record of each symbol's signal, as appended to the ledger. */
async function outcomes(): Promise<Map<string, Record<string, unknown>>> {
  const rows = await ctx.services.ledger.followUps(Object.keys(PATHS).map((s) => `${s}-flat_base-${at(0)}`));
  return new Map(rows.filter((r) => r.kind === 'outcome').map((r) => [r.signalId.split('-')[0]!, JSON.parse(r.body).data]));
}

describe('outcome resolution job', () => {
  it('resolves final outcomes once and leaves open ones alone', async () => {
    const run = await resolveOutcomes(ctx.services);
    expect(run).toEqual({ checked: 8, resolved: 7, stillOpen: 1, unresolvable: 0 });
    const o = await outcomes();
    expect(o.has('OPEN')).toBe(false);
    // Target 110 on day 2 (stop untouched before): +2R, exit at the target.
    expect(o.get('WIN')).toMatchObject({ outcome: 'win', entry: 100, exitPrice: 110, exitAt: at(2), rMultiple: 2, barsHeld: 2, daysHeld: 2, entered: true });
    expect(o.get('WIN')!.mfeR).toBe(2); // 110 is what was surely seen on the exit bar
    expect(o.get('LOSS')).toMatchObject({ outcome: 'loss', exitPrice: 95, exitAt: at(1), rMultiple: -1, maeR: 1 });
    // One bar reaches both 111 and 94: the stop counts.
    expect(o.get('BOTH')).toMatchObject({ outcome: 'loss', exitPrice: 95, rMultiple: -1 });
    // Opens at 93, below the 95 stop: filled at the open, −1.4R.
    expect(o.get('GAP')).toMatchObject({ outcome: 'loss', exitPrice: 93, rMultiple: -1.4 });
    // Surfaced forming; entered at the close of the trigger bar (101), target on day 2: (110 − 101) / (101 − 95).
    expect(o.get('FORM')).toMatchObject({ outcome: 'win', entry: 101, entryAt: at(1), exitPrice: 110, rMultiple: 1.5, barsHeld: 1 });
    expect(o.get('NEVER')).toMatchObject({ outcome: 'scratch', entered: false, rMultiple: 0, exitAt: at(2) });
    // Failed on day 2: out at that close, 99 → −0.2R.
    expect(o.get('SCR')).toMatchObject({ outcome: 'scratch', entered: true, exitPrice: 99, exitAt: at(2), rMultiple: -0.2 });
  });

  it('appends nothing on a second run, and the chain still verifies', async () => {
    const before = (await ctx.services.ledger.head()).seq;
    const again = await resolveOutcomes(ctx.services);
    expect(again).toEqual({ checked: 1, resolved: 0, stillOpen: 1, unresolvable: 0 });
    expect((await ctx.services.ledger.head()).seq).toBe(before);
    const report = await verifyLedger(ctx.services.ledger);
    expect(report.ok).toBe(true);
  });

  it('never reads a bar after asOf', async () => {
    // As of day 1 only: nothing that needs day 2 may resolve. Re-run on a fresh ledger to see it.
    const fresh = await createTestContext({ provider: createCsvProvider({ dir }) });
    try {
      await fresh.services.ledger.append([signal('WIN', 'triggered', 100), signal('LOSS', 'triggered', 100)]);
      const run = await resolveOutcomes(fresh.services, { asOfTs: Date.parse(at(1)) });
      expect(run).toEqual({ checked: 2, resolved: 1, stillOpen: 1, unresolvable: 0 });
    } finally {
      await fresh.close();
    }
  });

  it('shows the outcome on the public ledger page', async () => {
    const { body } = await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=20');
    const win = body.records.find((r) => r.signal.symbol === 'WIN')!;
    expect(win.outcome).toMatchObject({ outcome: 'win', rMultiple: 2 });
    expect(win.outcomeRecord!.seq).toBeGreaterThan(win.seq);
    expect(body.records.find((r) => r.signal.symbol === 'OPEN')!.outcome).toEqual({ outcome: 'open' });
  });
});
