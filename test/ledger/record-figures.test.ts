/**
 * ledger/record-figures and ledger/record-summary: a group's record from its
 * trades (hand-counted), differences over the same resampled weeks, the alert
 * policy's record, and the `edge` sentence in each of its three forms.
 */
import { describe, expect, it } from 'bun:test';
import { differenceOf, recordFigures, recordFiguresBy, weekRows, WIDTH, type RecordFigures, type RecordTrade } from '../../src/ledger/record-figures';
import { alertPolicyRecord, edgeStatement, EDGE_MIN_TRADES, type SummaryTrade } from '../../src/ledger/record-summary';

const trade = (entryAt: string, outcome: string, r: number, priceHit: 0 | 1 | null, draws: { same: [number, number]; base: [number, number] }): RecordTrade => ({
  entryAt,
  outcome,
  r,
  priceHit,
  priceR: priceHit === null ? null : priceHit ? 2 : -1,
  sameHits: draws.same[0],
  sameN: draws.same[1],
  sameSumR: 2 * draws.same[0] - (draws.same[1] - draws.same[0]),
  baseHits: draws.base[0],
  baseN: draws.base[1],
  baseSumR: 2 * draws.base[0] - (draws.base[1] - draws.base[0]),
});

// Week of Monday 2024-03-04: a win and a scratch; week of 2024-03-11: a loss and a win still open by prices.
const trades = [
  trade('2024-03-04T21:00:00.000Z', 'win', 2, 1, { same: [2, 5], base: [1, 5] }),
  trade('2024-03-08T21:00:00.000Z', 'scratch', -0.2, 1, { same: [1, 5], base: [2, 5] }),
  trade('2024-03-11T21:00:00.000Z', 'loss', -1, 0, { same: [2, 4], base: [3, 5] }),
  trade('2024-03-15T21:00:00.000Z', 'win', 2, null, { same: [0, 5], base: [1, 5] }),
];

describe('recordFigures', () => {
  const f = recordFigures(trades);

  it('counts the ledger and the price labels by hand: 2 wins of 4, mean R 0.7, 2 of 3 priced trades hit', () => {
    expect(f.trades).toBe(4);
    expect(f.weeks).toBe(2);
    expect(f.hitRate.value).toBe(0.5);
    expect(f.meanR.value).toBe(0.7); // (2 − 0.2 − 1 + 2) / 4
    expect(f.scratchShare).toBe(0.25);
    expect(f.priced).toBe(3);
    expect(f.priceHitRate.value).toBe(0.6667);
  });

  it('sets each baseline beside it: same-day 5 of 19 draws (lift 2/3 − 5/19), year-matched 7 of 20', () => {
    expect(f.sameDay.draws).toBe(19);
    expect(f.sameDay.hitRate).toBe(0.2632);
    expect(f.sameDay.lift.value).toBeCloseTo(2 / 3 - 5 / 19, 4);
    expect(f.yearMatched.draws).toBe(20);
    expect(f.yearMatched.lift.value).toBeCloseTo(2 / 3 - 7 / 20, 4);
    // liftR: mean price R of the priced trades (2 + 2 − 1)/3 minus the draws' mean R
    expect(f.sameDay.liftR.value).toBeCloseTo(1 - (2 * 5 - 14) / 19, 4);
  });

  it('puts every estimate inside its interval, resampling the two weeks', () => {
    for (const e of [f.hitRate, f.meanR, f.priceHitRate, f.sameDay.lift, f.yearMatched.lift]) {
      expect(e.lower!).toBeLessThanOrEqual(e.value!);
      expect(e.upper!).toBeGreaterThanOrEqual(e.value!);
    }
    // Resampling whole weeks: the hit rate of a resample is 1/2 (week 1 or week 2 twice, or one of each).
    expect([f.hitRate.lower, f.hitRate.upper]).toEqual([0.5, 0.5]);
  });

  it('sums a row a week, in time order', () => {
    const rows = weekRows([trades]);
    expect(rows.length).toBe(2 * WIDTH);
    expect([rows[0], rows[WIDTH]]).toEqual([2, 2]);
  });

  it('groups with the given order first, then the rest sorted', () => {
    const by = recordFiguresBy(trades, (t) => t.outcome, ['win']);
    expect(Object.keys(by)).toEqual(['win', 'loss', 'scratch']);
  });

  it('differences b − a over the same resampled weeks', () => {
    const a = trades.filter((t) => t.outcome !== 'win');
    const b = trades.filter((t) => t.outcome === 'win');
    const d = differenceOf(a, b, 'meanR');
    expect(d.value).toBeCloseTo(2 - -0.6, 10);
    expect(d.lower!).toBeLessThanOrEqual(d.value!);
  });
});

/** A band's figures with a given same-day lift and interval (the rest as recordFigures gives it for one trade). */
function band(priced: number, lift: [number, number, number]): RecordFigures {
  const base = recordFigures([trades[0]!]);
  return { ...base, trades: priced, priced, sameDay: { ...base.sameDay, lift: { value: lift[0], lower: lift[1], upper: lift[2] } } };
}

describe('edgeStatement', () => {
  const all = band(500, [-0.016, -0.02, -0.012]);
  it('says no band beats same-day random entries, naming the best band and its interval', () => {
    const e = edgeStatement({ elite: band(40, [-0.003, -0.012, 0.006]), strong: band(200, [-0.015, -0.024, -0.006]), ignore: band(20, [0.2, 0.1, 0.3]) }, all);
    expect(e.verdict).toBe('none');
    expect(e.statement).toBe(`no band beats same-day random entries: the best, elite, lift −0.3 pp [−1.2, +0.6]; all closed daily trades lift −1.6 pp [−2.0, −1.2] (500 trades, ${all.weeks} weeks)`);
  });
  it('names the bands whose interval lies above zero', () => {
    const e = edgeStatement({ elite: band(60, [0.05, 0.01, 0.09]), strong: band(200, [0.01, -0.01, 0.03]) }, all);
    expect(e.verdict).toBe('edge');
    expect(e.statement).toStartWith('elite beats same-day random entries: lift +5.0 pp [+1.0, +9.0]; all closed daily trades');
  });
  it(`says there are too few trades when no band has ${EDGE_MIN_TRADES}`, () => {
    expect(edgeStatement({ elite: band(EDGE_MIN_TRADES - 1, [0.5, 0.4, 0.6]) }, band(29, [0, 0, 0])).verdict).toBe('insufficient');
  });
});

describe('alertPolicyRecord', () => {
  const s = (t: RecordTrade, alert: SummaryTrade['alert']): SummaryTrade => ({ ...t, scoreBand: 'strong', patternType: 'vcp', direction: 'long', regime: 'risk_off', alert });
  it('sets the signals each reason blocked beside those let through, and counts records without a verdict', () => {
    const record = alertPolicyRecord([
      s(trades[0]!, { verdict: 'candidate', codes: [] }),
      s(trades[1]!, { verdict: 'blocked', codes: ['regime', 'extended'] }),
      s(trades[2]!, { verdict: 'blocked', codes: ['regime'] }),
      s(trades[3]!, null),
    ]);
    expect(record.eligible).toBe(3);
    expect(record.withoutVerdict).toBe(1);
    expect(record.letThrough.trades).toBe(1);
    expect(record.byReason.regime!.blocked.trades).toBe(2);
    expect(record.byReason.extended!.blocked.trades).toBe(1);
    expect(record.byReason.cooldown!.blocked.trades).toBe(0);
    expect(record.byReason.regime!.meanRDifference.value).toBeCloseTo(2 - -0.6, 10);
    expect(Object.values(record.byReason).every((r) => r.kind === 'risk rule')).toBe(true);
  });
});
