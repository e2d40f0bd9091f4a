/**
 * A persisted live run writes each newly surfaced signal's ledger record with
 * the alert policy's verdict on it (`alert`: candidate, blocked with its
 * reasons' codes, or not eligible), as a replay's records carry it, so the
 * scorecard's `alertPolicy` can judge the live chain too. Records written
 * before carry none (ledger/performance reads them as `alert: null`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { tradesOf } from '../../src/ledger/performance';
import { ledgerEntries } from '../../src/ledger/serialize';
import { createTestContext, type TestContext } from '../helpers/app';
import { smallMarket } from '../helpers/small-market';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(40) });
  await ctx.services.runs.persist('daily');
});
afterAll(() => ctx.close());

describe('the alert verdict on live ledger records', () => {
  it("keeps the run's verdict on every newly surfaced signal's record", async () => {
    const { view } = await ctx.services.runs.current('daily');
    const expected = new Map<string, { verdict: string; codes: string[] }>();
    for (const s of view.signals) expected.set(s.id, { verdict: 'not_eligible', codes: [] });
    for (const s of view.alerts.candidates) expected.set(s.id, { verdict: 'candidate', codes: [] });
    for (const b of view.alerts.blocked) expected.set(b.signal.id, { verdict: 'blocked', codes: b.codes });
    const { rows } = await ctx.services.ledger.signalRecords({}, 10_000, 0);
    expect(rows.length).toBe(view.signals.length);
    const trades = tradesOf(ledgerEntries(rows, []));
    for (const t of trades) expect({ id: t.id, alert: t.alert }).toEqual({ id: t.id, alert: expected.get(t.id)! });
    expect(trades.some((t) => t.alert!.verdict !== 'not_eligible')).toBe(true);
  });
});
