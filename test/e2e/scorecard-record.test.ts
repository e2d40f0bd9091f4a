/**
 * End to end on the committed real fixtures (test/fixtures/daily_yf_dieperdev:
 * 19 S&P 500 / Nasdaq-100 names, 2020-11 .. 2024-03): a real server over the
 * csv provider, a replay of 2021-06 .. 2024-03 with NVDA as the benchmark,
 * then `GET /api/scorecard?source=replay` and `GET
 * /api/transparency/monthly?source=replay` over HTTP carry the record section
 * — both matched baselines with weekly cluster-bootstrap intervals, by band,
 * pattern, direction, year and regime — the alert policy's record and the
 * `edge` statement, each labelled with its ledger; the live chain's scorecard
 * says so too (and that it has nothing to judge yet).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { runReplay } from '../../src/jobs/replay/run';
import { createCsvProvider } from '../../src/providers/csv';
import { fixture } from '../helpers/fixtures';
import { listenTestServer, type TestServer } from '../helpers/server';

const SYMBOLS = ['AAPL', 'AMZN', 'ASML', 'AVGO', 'C', 'CRM', 'DIS', 'GOOGL', 'INTC', 'JPM', 'KO', 'LLY', 'META', 'NFLX', 'NKE', 'SMCI', 'TSLA', 'WMT'];

let server: TestServer;
beforeAll(async () => {
  server = await listenTestServer({ provider: createCsvProvider({ dir: fixture('daily_yf_dieperdev') }) });
  const run = await runReplay(server.ctx.services, { timeframe: 'daily', from: '2021-06-01', to: '2024-03-08', universe: { kind: 'symbols', symbols: SYMBOLS }, benchmark: 'NVDA' }, { origin: 'test' });
  expect(run.status).toBe('done');
}, 600_000);
afterAll(() => server.close());

interface Estimate {
  value: number | null;
  lower: number | null;
  upper: number | null;
}
interface Figures {
  trades: number;
  weeks: number;
  hitRate: Estimate;
  meanR: Estimate;
  priceHitRate: Estimate;
  sameDay: { draws: number; hitRate: number | null; lift: Estimate; liftR: Estimate };
  yearMatched: { draws: number; hitRate: number | null; lift: Estimate; liftR: Estimate };
}

const around = (e: Estimate) => {
  expect(e.value).not.toBeNull();
  expect(e.lower!).toBeLessThanOrEqual(e.value!);
  expect(e.upper!).toBeGreaterThanOrEqual(e.value!);
};

describe('the record on /api/scorecard, end to end on real fixtures', () => {
  it('carries both baselines with cluster-bootstrap intervals, by band, pattern, direction, year and regime, labelled as the replay chain', async () => {
    const response = await server.get('/api/scorecard?source=replay');
    expect(response.status).toBe(200);
    const card = (await response.json()) as { allTime: { closed: number }; calibration: { record: Record<string, unknown> & { all: Figures } } };
    const record = card.calibration.record as { ledger: string; method: Record<string, string>; all: Figures } & Record<'byBand' | 'byPattern' | 'byDirection' | 'byYear' | 'byRegime', Record<string, Figures>>;
    expect(record.ledger).toBe('replay');
    expect(record.method.sameDay).toContain('same ATR(14)% quintile');
    expect(record.method.intervals).toContain('weekly cluster bootstrap');
    const { all } = record;
    expect(all.trades).toBeGreaterThan(100);
    expect(all.weeks).toBeGreaterThan(50);
    for (const e of [all.hitRate, all.meanR, all.priceHitRate, all.sameDay.lift, all.sameDay.liftR, all.yearMatched.lift, all.yearMatched.liftR]) around(e);
    expect(all.sameDay.draws).toBeGreaterThan(all.trades);
    expect(all.yearMatched.draws).toBeGreaterThan(all.trades);
    expect(all.sameDay.lift.value!).toBeCloseTo(all.priceHitRate.value! - all.sameDay.hitRate!, 3);
    for (const by of ['byBand', 'byPattern', 'byDirection', 'byYear', 'byRegime'] as const) {
      const groups = Object.values(record[by]);
      expect(groups.length).toBeGreaterThan(0);
      expect(groups.reduce((s, g) => s + g.trades, 0)).toBe(all.trades);
    }
    expect(Object.keys(record.byYear)).toEqual(expect.arrayContaining(['2022', '2023']));
  });

  it('states in words whether any band beats same-day random entries, with the lift and its interval', async () => {
    const card = (await (await server.get('/api/scorecard?source=replay')).json()) as { edge: { ledger: string; verdict: string; statement: string; basis: string } };
    expect(card.edge.ledger).toBe('replay');
    expect(['edge', 'none', 'insufficient']).toContain(card.edge.verdict);
    expect(card.edge.statement).toMatch(card.edge.verdict === 'none' ? /^no band beats same-day random entries: the best, \w+, lift [+−]\d+\.\d pp \[[+−]\d+\.\d, [+−]\d+\.\d\]/ : /same-day random entries|too few/);
    expect(card.edge.basis).toContain('weekly cluster-bootstrap');
  });

  it('shows each alert block reason beside the signals let through, as a risk rule', async () => {
    const card = (await (await server.get('/api/scorecard?source=replay')).json()) as { alertPolicy: { ledger: string; eligible: number; letThrough: Figures; byReason: Record<string, { kind: string; blocked: Figures; meanRDifference: Estimate }> } };
    expect(card.alertPolicy.ledger).toBe('replay');
    expect(Object.keys(card.alertPolicy.byReason).sort()).toEqual(['cooldown', 'earnings', 'extended', 'illiquid', 'regime']);
    for (const reason of Object.values(card.alertPolicy.byReason)) expect(reason.kind).toBe('risk rule');
    expect(card.alertPolicy.eligible).toBeGreaterThanOrEqual(card.alertPolicy.letThrough.trades);
  });

  it('carries the record of a month in the monthly rollup, labelled', async () => {
    const response = await server.get('/api/transparency/monthly?month=2023-03&source=replay');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { summary: { closed: number }; record: { ledger: string; all: Figures; edge: { statement: string }; alertPolicy: unknown; byYear: Record<string, Figures> } };
    expect(body.record.ledger).toBe('replay');
    expect(body.record.all.trades).toBeGreaterThan(0);
    around(body.record.all.sameDay.lift);
    expect(Object.keys(body.record.byYear)).toEqual(['2023']);
    expect(body.record.edge.statement.length).toBeGreaterThan(10);
  });

  it('labels the live chain too, with nothing to judge yet', async () => {
    const card = (await (await server.get('/api/scorecard')).json()) as { calibration: { record: { ledger: string; all: Figures } }; edge: { ledger: string; verdict: string; statement: string } };
    expect(card.calibration.record.ledger).toBe('live');
    expect(card.calibration.record.all.trades).toBe(0);
    expect(card.edge).toMatchObject({ ledger: 'live', verdict: 'insufficient' });
    expect(card.edge.statement).toStartWith('too few closed daily trades');
  });
});
