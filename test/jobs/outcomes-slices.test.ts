/**
 * The outcome job reads and plans its pending records a slice at a time
 * (PLAN_SLICE, a turn of the event loop between; issue 27): more than one
 * slice pending resolves as one pass did, each record with its own
 * follow-ups. The path and expected figures are outcomes.test.ts's FORM:
 * surfaced forming, triggered at 101 on day 1, the 110 target on day 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAN_SLICE, resolveOutcomes } from '../../src/jobs/outcomes';
import { createCsvProvider } from '../../src/providers/csv';
import { createTestContext, type TestContext } from '../helpers/app';

const DAYS = ['2024-01-02', '2024-01-03', '2024-01-04'];
const at = (i: number) => `${DAYS[i]}T00:00:00.000Z`;
const BARS = [[97, 99, 96, 98], [99, 101.5, 98, 101], [101, 110.5, 100, 110]];
const N = 2 * PLAN_SLICE + 11;
const id = (i: number) => `FORM-flat_base-${i}`;

let ctx: TestContext;
const dir = mkdtempSync(join(tmpdir(), 'breakline-outcome-slices-'));

beforeAll(async () => {
  writeFileSync(join(dir, 'FORM.csv'), ['Date,Open,High,Low,Close,Volume', ...BARS.map((b, i) => `${DAYS[i]},${b.join(',')},1000000`)].join('\n') + '\n');
  ctx = await createTestContext({ provider: createCsvProvider({ dir }) });
  const signals = Array.from({ length: N }, (_, i) => ({
    kind: 'signal' as const,
    signalId: id(i),
    patternType: 'flat_base',
    scoreBand: 'strong',
    finalScore: 75,
    detectedAt: new Date(at(0)),
    data: { id: id(i), symbol: 'FORM', timeframe: 'daily', patternType: 'flat_base', direction: 'long', detectedAt: at(0), surfacedAt: at(0), state: 'forming', triggerPrice: 100, target1: 110, stopLoss: 95, finalScore: 75, scoreBand: 'strong', priceAtDetection: 98 },
  }));
  // Every even signal triggers; its event lies after all the signals in the chain, so in no slice's own range of records.
  const events = signals.filter((_, i) => i % 2 === 0).map((s) => ({ kind: 'event' as const, signalId: s.signalId, data: { from: 'forming', to: 'triggered', price: 101, at: at(1), runId: 'run_test' } }));
  await ctx.services.ledger.append([...signals, ...events]);
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('outcome resolution over more than one slice', () => {
  it('resolves each triggered record with its own event and leaves the others open', async () => {
    const triggered = Math.ceil(N / 2);
    expect(await resolveOutcomes(ctx.services)).toEqual({ checked: N, resolved: triggered, stillOpen: N - triggered, unresolvable: 0 });
    const rows = await ctx.services.ledger.followUps(Array.from({ length: N }, (_, i) => id(i)));
    const outcomes = rows.filter((r) => r.kind === 'outcome');
    expect(outcomes.map((r) => r.signalId).sort()).toEqual(Array.from({ length: N }, (_, i) => i).filter((i) => i % 2 === 0).map(id).sort());
    for (const r of outcomes) expect(JSON.parse(r.body).data).toMatchObject({ outcome: 'win', entry: 101, entryAt: at(1), exitPrice: 110, rMultiple: 1.5 });
  });
});
