/**
 * Cold market reads asked at once share one computation (issue 27: five
 * callers of /api/sector-rotation, /api/earnings or /api/altdata/options-flow
 * made five, each holding the server's thread); a later call computes afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { optionsFlowOf } from '../../src/modules/altdata/service';
import { earnings } from '../../src/modules/fundamentals/service';
import { sectorRotation } from '../../src/modules/market/rotation';
import { readPage } from '../../src/pagination';
import { createTestContext, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('market reads asked at once', () => {
  it('share one sector rotation, and a later call computes its own with the same content', async () => {
    const { marketData } = ctx.services;
    const [a, b] = await Promise.all([sectorRotation(marketData), sectorRotation(marketData)]);
    expect(b).toBe(a);
    const later = await sectorRotation(marketData);
    expect(later).not.toBe(a);
    expect(later).toEqual(a);
  });

  it("share one symbol's options flow, not another symbol's", async () => {
    const { marketData } = ctx.services;
    const [a, b, other] = await Promise.all([optionsFlowOf(marketData, 'AAPL'), optionsFlowOf(marketData, 'AAPL'), optionsFlowOf(marketData, 'MSFT')]);
    expect(b).toBe(a);
    expect(other.symbol).toBe('MSFT');
    const later = await optionsFlowOf(marketData, 'AAPL');
    expect(later).not.toBe(a);
    expect(later).toEqual(a);
  });

  it("share one symbol's earnings calendar, each caller paging it", async () => {
    const { marketData } = ctx.services;
    const [all, two] = await Promise.all([earnings(marketData, 'AAPL', readPage({ limit: '200' })), earnings(marketData, 'AAPL', readPage({ limit: '2' }))]);
    expect(two.proximity).toBe(all.proximity);
    expect(two.items).toEqual(all.items.slice(0, 2));
    expect(two.pagination.total).toBe(all.pagination.total);
    const later = await earnings(marketData, 'AAPL', readPage({ limit: '200' }));
    expect(later.proximity).not.toBe(all.proximity);
    expect(later).toEqual(all);
  });
});
