/**
 * The grounding check (src/ai/grounding): what counts as a number in a
 * bullet, when it matches a fact, and that an invented one is named.
 */
import { describe, expect, it } from 'bun:test';
import { factNumbers, groundBullets, mentionsOf } from '../../src/ai/grounding';

const FACTS = {
  definitions: { rsRankRange: [1, 99], volumeAverageBars: 50 },
  signal: { symbol: 'NVDA', patternType: 'new_high_52w', detectedAt: '2026-11-18T21:00:00.000Z', price: 182.43, distancePct: -1.27 },
  levels: { trigger: 184.8, target1: 203.28, stopLoss: 177.41, riskPct: 4.0, rewardRisk: 2.5 },
  volume: { avgDollarVolumeMillions: 25312.4, breakoutVolumeRatio: 1.84 },
  history: [{ hitRatePct: 58.33, avgR: 0.42, closed: 12 }],
  scoreComponents: { patternQuality: 0.82 },
  reasons: ['Close 182.43 within 1.3% of the 52-week high'],
};

describe('numbers in a bullet', () => {
  it('reads prices, percentages, multiples, R, thousands commas, scales and ISO dates with the precision shown', () => {
    const m = mentionsOf('Trigger $184.80, 4% risk, 1.84x volume, 0.42R, 1,234 shares, $25.3B a day, listed 2026-11-18T21:00:00.000Z.');
    expect(m.map((x) => [x.text, x.value, x.decimals, x.scale, x.percent, x.date])).toEqual([
      ['$184.80', 184.8, 2, 1, false, undefined],
      ['4%', 4, 0, 1, true, undefined],
      ['1.84x', 1.84, 2, 1, false, undefined],
      ['0.42R', 0.42, 2, 1, false, undefined],
      ['1,234', 1234, 0, 1, false, undefined],
      ['$25.3B', 25.3, 1, 1e9, false, undefined],
      ['2026-11-18T21:00:00.000Z', Number.NaN, 0, 1, false, '2026-11-18'],
    ]);
  });

  it('counts digits inside words and after a minus sign (a number is a number)', () => {
    expect(mentionsOf('Q3 and EMA50, down −2.5%').map((x) => x.value)).toEqual([3, 50, 2.5]);
    expect(mentionsOf('Three bars, no digits at all')).toEqual([]);
  });
});

describe('matching the facts', () => {
  it('accepts every number that rounds from a fact, naming the fact', () => {
    const bullets = [
      'NVDA closed at $182.4, 1.27% short of its new 52-week high trigger of 184.8.',
      'Target 203 and stop 177.41: 2.5 units of reward per unit of risk with 4% at risk.',
      'Volume ran 1.8x its 50-bar average on $25,312.4M a day; RS rank on a 1–99 scale.',
      'Closed 12 trades, 58% hits, 0.4R on average; pattern quality 82%; detected 2026-11-18.',
    ];
    const { failures, grounding } = groundBullets(bullets, FACTS);
    expect(failures).toEqual([]);
    const cited = grounding.flatMap((g) => g.citations.map((c) => `${c.text}→${c.fact}`));
    expect(cited).toEqual([
      '$182.4→signal.price',
      '1.27%→signal.distancePct',
      '52→signal.patternType', // quoted as "new 52-week high": the pattern's name, read from its text
      '184.8→levels.trigger',
      '203→levels.target1',
      '177.41→levels.stopLoss',
      '2.5→levels.rewardRisk',
      '4%→levels.riskPct',
      '1.8x→volume.breakoutVolumeRatio',
      '50→definitions.volumeAverageBars',
      '$25,312.4M→volume.avgDollarVolumeMillions', // a scaled number matching a fact already in $M
      '1→definitions.rsRankRange[0]',
      '99→definitions.rsRankRange[1]',
      '12→history[0].closed',
      '58%→history[0].hitRatePct',
      '0.4R→history[0].avgR',
      '82%→scoreComponents.patternQuality', // a ratio stated as a percentage
      '2026-11-18→signal.detectedAt',
    ]);
  });

  it('refuses a number that is not in the facts, or that the fact does not round to, naming each', () => {
    const { failures } = groundBullets(['The trigger is 184.80 and the target 210.', 'The stop is 177.4; price 182.5.', 'It rose 200 days running since 2026-11-17.'], FACTS);
    expect(failures).toEqual([
      'bullet 1 states 210, which matches no number in the facts',
      'bullet 2 states 182.5, which matches no number in the facts', // 182.43 rounds to 182.4, not 182.5 (177.4 from 177.41 is fine)
      'bullet 3 states 200, which matches no number in the facts',
      'bullet 3 states the date 2026-11-17, which is not in the facts',
    ]);
  });

  it('rounds half a unit of the last shown digit either way, and no further', () => {
    const facts = { x: 177.41, y: 182.46 };
    expect(groundBullets(['177.4 and 177 and 180'], facts).failures).toEqual(['bullet 1 states 180, which matches no number in the facts']);
    expect(groundBullets(['182.5 and 182.46'], facts).failures).toEqual([]);
    expect(groundBullets(['182.4'], facts).failures).toEqual(['bullet 1 states 182.4, which matches no number in the facts']);
  });

  it('reads numbers from fact texts, dates as their parts too', () => {
    const { numbers, dates } = factNumbers({ reasons: ['Volume 2.1x its 50-bar average'], at: '2026-11-18T21:00:00.000Z' });
    expect(numbers.map((n) => n.value)).toEqual([2.1, 50, 2026, 11, 18]);
    expect([...dates.keys()]).toEqual(['2026-11-18']);
  });
});
