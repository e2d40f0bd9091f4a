/**
 * The yahoo adapter's options JSON against the loopback replay
 * (test/providers/yahoo-replay.ts) serving the real chains in shared/data: SPY
 * on 2025-08-26 (30 expiries, 7,011 contracts) and AAPL on 2026-07-31. The
 * real-data run: these snapshots carry no licence that lets the repository
 * hold them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Static } from 'elysia';
import type { OptionsFlowResponse } from '../../../src/modules/altdata/model';
import { createYahooProvider, type YahooProvider } from '../../../src/providers/yahoo';
import { createTestContext, errorBody, type TestContext } from '../../helpers/app';
import { fixture } from '../../helpers/fixtures';
import { sharedData } from '../../helpers/shared-data';
import { epoch, readCsv, replayServer, type ReplayChain } from '../../providers/yahoo-replay';

const spy = readCsv(sharedData('options', 'spy_chain_snapshot_20250826_yf.csv.gz'));
const aaplChain = readCsv(sharedData('options', 'aapl_chain_snapshot_20260731_yf.csv'));
const chains: Record<string, ReplayChain> = {
  SPY: { price: 645.16, time: epoch('2025-08-26') + 20 * 3600, rows: spy, isCall: (r) => r.Type === 'c', expiry: (r) => r.Expiration_Date! },
  AAPL: { price: Number(aaplChain[0]!.spot), time: epoch('2026-07-31') + 20 * 3600, rows: aaplChain, isCall: (r) => r.type === 'call', expiry: (r) => r.expiry! },
};

let replay: ReturnType<typeof replayServer>;
let yahoo: YahooProvider;
beforeAll(() => {
  replay = replayServer({ aaplDaily: fixture('daily_yf_dieperdev', 'AAPL.csv'), qqqHourly: fixture('intraday', 'yf_1h_moneytree', 'QQQ_1h.csv'), chains });
  yahoo = createYahooProvider({ baseUrl: replay.baseUrl, ratePerSecond: 1000 });
});
afterAll(() => replay.server.stop(true));

describe('yahoo provider: options JSON on real chains', () => {
  it('reads every expiry of the SPY chain (one request per expiry) and one expiry on request', async () => {
    const before = replay.requests.length;
    const chain = await yahoo.optionChain('SPY');
    expect(chain.expiries).toHaveLength(30);
    expect(chain.contracts).toHaveLength(spy.length); // 7,011
    expect(replay.requests.length - before).toBe(30); // the first page carries the nearest expiry
    expect(chain.underlyingPrice).toBe(645.16);
    const c = chain.contracts.find((x) => x.contractSymbol === 'SPY250826C00540000')!;
    expect(c).toMatchObject({ type: 'call', strike: 540, expiry: '2025-08-26', bid: 104.27, ask: 106.98, volume: 4, openInterest: 3 });
    expect(c.impliedVolatility!).toBeCloseTo(1.71094, 5);
    // Cached: no further request.
    await yahoo.optionChain('SPY');
    expect(replay.requests.length - before).toBe(30);
    const one = await yahoo.optionChain('SPY', { expiry: '2025-12-19' });
    expect(new Set(one.contracts.map((x) => x.expiry))).toEqual(new Set(['2025-12-19']));
    await expect(yahoo.optionChain('NOPE')).rejects.toMatchObject({ code: 'unknown_symbol' });
  });

  it('serves /api/altdata/options-flow from the real AAPL chain', async () => {
    const ctx: TestContext = await createTestContext({ provider: yahoo });
    try {
      const { status, body } = await ctx.json<Static<typeof OptionsFlowResponse>>('/api/altdata/options-flow?symbol=AAPL');
      expect(status).toBe(200);
      const rows = readCsv(sharedData('options', 'aapl_chain_snapshot_20260731_yf.csv'));
      const callOi = rows.filter((r) => r.type === 'call').reduce((a, r) => a + Number(r.openInterest || 0), 0);
      expect(body.flow).toMatchObject({ source: 'yahoo', underlyingPrice: 308.9100036621094, expiries: ['2026-08-28'], contracts: rows.length });
      expect(body.flow.totals.callOpenInterest).toBe(callOi);
      const missing = await ctx.request('/api/insider?symbol=AAPL');
      expect(missing.status).toBe(404); // Yahoo has no insider data
      expect((await errorBody(missing)).error).toContain('Not available in this deployment');
    } finally {
      await ctx.close();
    }
  });
});
