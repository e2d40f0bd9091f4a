/** The macro calendar (src/providers/macro/events.csv) against the FOMC and CPI date files in shared/data/macro: the real-data run. */
import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { macroEvents } from '../../../src/providers/macro';
import { sharedData } from '../../helpers/shared-data';

const SHARED = sharedData('macro');
const FOMC_FILE = 'fomc_dates_2015_2026_mayherprog.csv';
const CPI_FILE = 'cpi_release_dates_2015_2026_mayherprog.csv';

function sharedColumn(file: string, column: string): string[] {
  const [header, ...rows] = readFileSync(join(SHARED, file), 'utf8').trim().split('\n');
  const k = header!.split(',').indexOf(column);
  return rows.map((r) => r.split(',')[k]!);
}

describe('macro calendar against the shared data files', () => {
  it('has exactly the FOMC decision dates of the shared file, unscheduled ones marked', () => {
    const fromFile = macroEvents().filter((e) => e.type === 'fomc' && e.source === FOMC_FILE);
    expect(fromFile.map((e) => e.date)).toEqual(sharedColumn(FOMC_FILE, 'decision_date'));
    const unscheduled = sharedColumn(FOMC_FILE, 'type').map((t) => t === 'unscheduled');
    expect(fromFile.map((e) => e.title.includes('unscheduled'))).toEqual(unscheduled);
    // The only other FOMC rows are the Fed's tentative 2027 schedule.
    const others = macroEvents().filter((e) => e.type === 'fomc' && e.source !== FOMC_FILE);
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((e) => e.date.startsWith('2027-') && e.title.includes('tentative'))).toBe(true);
  });

  it('has exactly the CPI release dates of the shared file', () => {
    const cpi = macroEvents().filter((e) => e.type === 'cpi');
    expect(cpi.map((e) => e.date)).toEqual(sharedColumn(CPI_FILE, 'release_date'));
    expect(cpi.map((e) => e.title)).toEqual(sharedColumn(CPI_FILE, 'reference_month').map((m) => `CPI for ${m}`));
  });
});
