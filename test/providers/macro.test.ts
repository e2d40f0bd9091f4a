import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { intlNewYork } from '../helpers/new-york';
import { MACRO_EVENT_TYPES, macroEvents, nextEvents, parseMacroEvents, proximity } from '../../src/providers/macro';
import { newYorkDate, newYorkOffsetHours, newYorkToUtc } from '../../src/providers/new-york-time';

const CSV_PATH = join(import.meta.dir, '../../src/providers/macro/events.csv');
describe('macro calendar data', () => {
  it('parses every row of events.csv', () => {
    const rows = readFileSync(CSV_PATH, 'utf8').trim().split('\n').length - 1;
    const events = macroEvents();
    expect(events.length).toBe(rows);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(MACRO_EVENT_TYPES));
    for (const e of events) expect(e.at).toBe(new Date(e.ts).toISOString());
  });

  it('rejects malformed rows, naming the line', () => {
    const header = 'date,time,type,title,source\n';
    expect(() => parseMacroEvents(`${header}2025-03-12,08:30,ppi,PPI,bls`)).toThrow(/line 2/);
    expect(() => parseMacroEvents(`${header}2025-03-12,8:30,cpi,CPI,bls`)).toThrow(/line 2/);
    expect(() => parseMacroEvents(`${header}2025-02-30,08:30,cpi,CPI,bls`)).toThrow(/line 2 is invalid: .*no such date/);
    expect(() => parseMacroEvents(`${header}2025-03-12,08:30,cpi,CPI, March,bls`)).toThrow(/6 cells/);
    expect(() => parseMacroEvents('when,what\n')).toThrow(/header/);
  });

  it('falls on weekdays, except the Sunday 2020-03-15 emergency FOMC statement', () => {
    const weekend = macroEvents().filter((e) => [0, 6].includes(new Date(`${e.date}T00:00:00Z`).getUTCDay()));
    expect(weekend.map((e) => `${e.date} ${e.type} ${e.title}`)).toEqual([
      '2020-03-15 fomc FOMC statement (unscheduled meeting)',
    ]);
  });

  it('releases at the agencies\' published times', () => {
    expect(macroEvents().length).toBeGreaterThan(0);
    for (const e of macroEvents()) {
      if (e.type === 'fomc' && !e.title.includes('unscheduled')) expect(e.time).toBe('14:00');
      if (e.type !== 'fomc') expect(e.time).toBe('08:30');
    }
  });

  it('has no October 2025 jobs report or CPI (cancelled after the shutdown)', () => {
    const titles = macroEvents().map((e) => e.title);
    expect(titles).not.toContain('Employment Situation for October 2025');
    expect(titles).not.toContain('CPI for October 2025');
    expect(titles).toContain('Employment Situation for September 2025 (delayed by the 2025 shutdown)');
  });
});

describe('New York time', () => {
  it('puts an 08:30 CPI release at 12:30Z under EDT and 13:30Z under EST', () => {
    const at = (date: string) => macroEvents().find((e) => e.type === 'cpi' && e.date === date)!.at;
    expect(at('2025-03-12')).toBe('2025-03-12T12:30:00.000Z');
    expect(at('2025-01-15')).toBe('2025-01-15T13:30:00.000Z');
    expect(newYorkToUtc('2024-11-07', '14:00')).toBe(Date.parse('2024-11-07T19:00:00Z'));
    expect(newYorkToUtc('2020-03-15', '17:00')).toBe(Date.parse('2020-03-15T21:00:00Z'));
  });

  it('switches at 02:00 local on the second Sunday of March and the first of November', () => {
    expect(newYorkToUtc('2025-03-09', '01:59')).toBe(Date.parse('2025-03-09T06:59:00Z'));
    expect(newYorkToUtc('2025-03-09', '03:00')).toBe(Date.parse('2025-03-09T07:00:00Z'));
    expect(newYorkToUtc('2025-11-02', '01:30')).toBe(Date.parse('2025-11-02T05:30:00Z')); // first (EDT) pass
    expect(newYorkToUtc('2025-11-02', '02:00')).toBe(Date.parse('2025-11-02T07:00:00Z'));
    expect(newYorkOffsetHours(Date.parse('2025-03-09T06:59:59Z'))).toBe(-5);
    expect(newYorkOffsetHours(Date.parse('2025-03-09T07:00:00Z'))).toBe(-4);
    expect(newYorkOffsetHours(Date.parse('2025-11-02T05:59:59Z'))).toBe(-4);
    expect(newYorkOffsetHours(Date.parse('2025-11-02T06:00:00Z'))).toBe(-5);
    // Before 2007 daylight time ran from the first Sunday of April (2006-04-02) to the last of October (2006-10-29).
    expect(newYorkToUtc('2006-04-01', '08:30')).toBe(Date.parse('2006-04-01T13:30:00Z'));
    expect(newYorkToUtc('2006-06-01', '08:30')).toBe(Date.parse('2006-06-01T12:30:00Z'));
    expect(() => newYorkToUtc('2025-03-12', '24:00')).toThrow(RangeError);
  });

  it('agrees with the IANA zone for every event and every hour of 2025 and 2026', () => {
    expect(macroEvents().length).toBeGreaterThan(0);
    for (const e of macroEvents()) expect(intlNewYork(e.ts)).toEqual({ date: e.date, time: e.time });
    for (let t = Date.parse('2025-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 3_600_000) {
      expect(newYorkDate(t)).toBe(intlNewYork(t).date);
    }
  });
});

describe('nextEvents', () => {
  it('lists the next releases in order from a fixed clock', () => {
    const now = Date.parse('2025-03-11T12:00:00Z');
    expect(nextEvents(now).map((e) => `${e.at} ${e.type}`)).toEqual([
      '2025-03-12T12:30:00.000Z cpi',
      '2025-03-19T18:00:00.000Z fomc',
      '2025-03-27T12:30:00.000Z gdp',
      '2025-04-04T12:30:00.000Z jobs',
      '2025-04-10T12:30:00.000Z cpi',
    ]);
    expect(nextEvents(now, 1)).toHaveLength(1);
  });

  it('counts a release happening at `now` as next, and one a millisecond ago as past', () => {
    const cpi = Date.parse('2025-03-12T12:30:00Z');
    expect(nextEvents(cpi, 1)[0]!.type).toBe('cpi');
    expect(nextEvents(cpi + 1, 1)[0]!.type).toBe('fomc');
  });

  it('returns nothing past the end of the calendar and rejects bad arguments', () => {
    expect(nextEvents(Date.parse('2028-06-01T00:00:00Z'))).toEqual([]);
    expect(() => nextEvents(NaN)).toThrow(RangeError);
    expect(() => nextEvents(0, 0)).toThrow(RangeError);
  });
});

describe('proximity', () => {
  it('gives days and hours to the next release of each type', () => {
    const p = proximity(Date.parse('2025-03-11T12:00:00Z')); // 08:00 EDT on Tuesday 2025-03-11
    expect(p.cpi).toMatchObject({ calendarDays: 1, hoursUntil: 24.5, within1Day: true, within5Days: true });
    expect(p.cpi.next!.date).toBe('2025-03-12');
    expect(p.fomc).toMatchObject({ calendarDays: 8, hoursUntil: 198, within1Day: false, within5Days: false });
    expect(p.gdp).toMatchObject({ calendarDays: 16, within5Days: false });
    expect(p.jobs).toMatchObject({ calendarDays: 24, within5Days: false });
  });

  it('counts calendar days on New York dates, not UTC dates', () => {
    // 03:00Z on 03-12 is still 23:00 on 03-11 in New York: the CPI release is tomorrow, 9.5 h away.
    const p = proximity(Date.parse('2025-03-12T03:00:00Z'));
    expect(p.cpi).toMatchObject({ calendarDays: 1, hoursUntil: 9.5, within1Day: true });
    // Same day before the release: 0 days.
    expect(proximity(Date.parse('2025-03-12T11:00:00Z')).cpi).toMatchObject({ calendarDays: 0, hoursUntil: 1.5 });
  });

  it('sees across the 2025 shutdown gap to the delayed September jobs report', () => {
    const p = proximity(Date.parse('2025-10-01T12:00:00Z'));
    expect(p.jobs.next!.date).toBe('2025-11-20');
    expect(p.jobs.calendarDays).toBe(50);
    expect(p.fomc.next!.date).toBe('2025-10-29');
  });

  it('reports null for a type with no later release', () => {
    const p = proximity(Date.parse('2027-06-01T12:00:00Z'));
    expect(p.cpi).toEqual({
      type: 'cpi',
      next: null,
      calendarDays: null,
      hoursUntil: null,
      within1Day: false,
      within5Days: false,
    });
    expect(p.fomc.next!.date).toBe('2027-06-09');
  });
});
