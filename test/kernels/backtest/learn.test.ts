import { describe, expect, it } from 'bun:test';
import { learnFromTraining, takes, type TrainingTrade } from '../../../src/kernels/backtest';

const trade = (band: TrainingTrade['band'], r: number, patternType: TrainingTrade['patternType'] = 'flat_base'): TrainingTrade => ({ band, r, patternType });
const many = (n: number, band: TrainingTrade['band'], r: number, patternType?: TrainingTrade['patternType']) => Array.from({ length: n }, () => trade(band, r, patternType));

describe('the band floor a fold learns', () => {
  it('chooses the lowest floor whose training trades averaged a positive net R', () => {
    const model = learnFromTraining([...many(5, 'watchlist', 0.4), ...many(3, 'strong', 0.2)]);
    expect(model.minBand).toBe('watchlist');
    expect(model.thresholds[0]).toMatchObject({ band: 'watchlist', trades: 8 });
    expect(model.thresholds[0]!.meanR!).toBeCloseTo(0.325, 12); // (5 × 0.4 + 3 × 0.2) / 8
  });

  it('moves up past a losing floor', () => {
    // watchlist+: 6 × −0.5 and 5 × 0.55 → mean −0.0227; strong+: 5 × 0.55 → 0.55
    const model = learnFromTraining([...many(6, 'watchlist', -0.5), ...many(5, 'strong', 0.55)]);
    expect(model.minBand).toBe('strong');
  });

  it('defaults to watchlist (or the floor reached) when too few trades to judge', () => {
    expect(learnFromTraining([]).minBand).toBe('watchlist');
    expect(learnFromTraining(many(4, 'elite', -1)).minBand).toBe('watchlist');
    const model = learnFromTraining([...many(6, 'watchlist', -0.5), ...many(2, 'strong', -1)]); // watchlist judged and lost; strong+ has 2
    expect(model.minBand).toBe('strong');
    expect(model.minBandReason).toContain('fewer than 5');
  });

  it('stands aside when every floor was judged and lost', () => {
    const model = learnFromTraining(many(6, 'elite', -0.3));
    expect(model.minBand).toBeNull();
    expect(takes(model, { band: 'elite', patternType: 'flat_base' })).toBe(false);
  });

  it('never takes an ignore-band signal', () => {
    expect(takes(learnFromTraining([]), { band: 'ignore', patternType: 'flat_base' })).toBe(false);
  });
});

describe('the pattern filter a fold learns', () => {
  it('drops a pattern whose hit rate is at or below its break-even hit rate L / (W + L)', () => {
    // vcp: 2 wins of 2R, 4 losses of 1R: h = 1/3, h* = 1 / (2 + 1) = 1/3 → not traded (expectancy 0)
    const model = learnFromTraining([...many(2, 'strong', 2, 'vcp'), ...many(4, 'strong', -1, 'vcp')]);
    expect(model.patterns.vcp).toEqual({ trades: 6, wins: 2, hitRate: 1 / 3, breakEvenHitRate: 1 / 3, traded: false });
    expect(takes(model, { band: 'strong', patternType: 'vcp' })).toBe(false);
  });

  it('keeps one above break-even, and one with too few trades whatever its record', () => {
    // bull_flag: 3 wins of 1.5R, 3 losses of 1R: h = 0.5 > h* = 1/2.5 = 0.4
    const model = learnFromTraining([...many(3, 'strong', 1.5, 'bull_flag'), ...many(3, 'strong', -1, 'bull_flag'), ...many(4, 'strong', -1, 'gap_and_go')]);
    expect(model.patterns.bull_flag!.traded).toBe(true);
    expect(model.patterns.bull_flag!.breakEvenHitRate).toBeCloseTo(0.4, 15);
    expect(model.patterns.gap_and_go).toMatchObject({ trades: 4, wins: 0, breakEvenHitRate: 1, traded: true });
    expect(model.minBand).toBe('elite'); // both lower floors lost; elite untested
    expect(takes(model, { band: 'elite', patternType: 'cup_with_handle' })).toBe(true); // never seen in training
    expect(takes(model, { band: 'elite', patternType: 'bull_flag' })).toBe(true);
  });
});
