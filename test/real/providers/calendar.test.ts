/** The NYSE calendar against every S&P 500 session from 2005 to 2026-08 (daily_marketlab/GSPC.csv): the real-data run. */
import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tradingDays } from '../../../src/providers/calendar';
import { sharedData } from '../../helpers/shared-data';

/** The real sessions: every date the S&P 500 index printed a bar (daily_marketlab/GSPC.csv). */
function gspcSessions(from: string, to: string): string[] {
  const text = readFileSync(join(sharedData('daily_marketlab'), 'GSPC.csv'), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.slice(0, 10))
    .filter((d) => d >= from && d <= to);
}

describe('trading days against the real record', () => {
  it('has exactly the sessions the S&P 500 traded from 2005-01-01 to 2026-08-21', () => {
    const real = gspcSessions('2005-01-01', '2026-08-21');
    const mine = tradingDays('2005-01-01', '2026-08-21');
    const realSet = new Set(real);
    const mineSet = new Set(mine);
    expect(real.filter((d) => !mineSet.has(d))).toEqual([]);
    expect(mine.filter((d) => !realSet.has(d))).toEqual([]);
    expect(mine.length).toBe(5443);
  });
});

