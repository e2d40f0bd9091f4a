/**
 * Rows packed as columns for a worker task (ledger/packed-rows): unpacked,
 * they are the rows packed — numbers, nulls, strings and JSON values — over
 * more rows than one slice of the packing.
 */
import { describe, expect, it } from 'bun:test';
import { packRows, unpackRows } from '../../src/ledger/packed-rows';
import { SUMMARY_FIELDS, type SummaryTrade } from '../../src/ledger/record-summary';

const ALERTS = [null, { verdict: 'candidate', codes: [] }, { verdict: 'blocked', codes: ['extended', 'cooldown'] }];

/** Summary trades as jobs/record sends them: every field of SUMMARY_FIELDS, some null. */
const trade = (i: number): SummaryTrade => ({
  priceHit: i % 5 === 0 ? null : ((i % 2) as 0 | 1),
  priceR: i % 5 === 0 ? null : (i % 7) - 2.5,
  baseHits: i % 3,
  baseN: 5,
  baseSumR: i / 7,
  sameHits: i % 4,
  sameN: 5,
  sameSumR: -i / 11,
  r: i % 2 ? 2 : -1,
  entryAt: new Date(Date.UTC(2025, 0, 2 + (i % 300))).toISOString(),
  outcome: ['win', 'loss', 'scratch'][i % 3]!,
  scoreBand: ['ignore', 'watchlist', 'strong', 'elite'][i % 4]!,
  patternType: `pattern_${i % 6}`,
  direction: i % 11 === 5 ? 'short' : 'long',
  regime: 'risk_on',
  alert: ALERTS[i % 3]!,
});

describe('rows packed as columns', () => {
  it('unpack to the rows packed, with their nulls, strings and JSON values', async () => {
    const rows = Array.from({ length: 9_001 }, (_, i) => trade(i));
    const packed = await packRows(rows, SUMMARY_FIELDS);
    expect(packed.words.length).toBeLessThan(400); // each distinct string once
    const back = structuredClone(packed); // as it crosses to the worker
    expect(unpackRows<SummaryTrade>(back)).toEqual(rows);
  });

  it('pack no rows', async () => {
    expect(unpackRows(await packRows([], { a: 'number', b: 'word' }))).toEqual([]);
  });
});
