import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { easterSunday, isEarlyClose, isTradingDay, marketHolidays, nextTradingDay, previousTradingDay, tradingDaysUntil, sessionAt, sessionOpenClose, tradingDays } from '../../src/providers/calendar';
import { isoDate, newYorkDate, newYorkUtcOffset, parseIsoDate } from '../../src/providers/new-york-time';
import { intlNewYork } from '../helpers/new-york';
import { fixture } from '../helpers/fixtures';

/** Real sessions: every date NVDA printed a bar in the committed dieperdev excerpt (test/fixtures; SOURCES: no session missing against ^GSPC). */
function nvdaSessions(): string[] {
  const text = readFileSync(fixture('daily_yf_dieperdev', 'NVDA.csv'), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.slice(0, 10));
}

describe('trading days against the real record', () => {
  it('has exactly the sessions NVDA traded from 2014-12-01 to 2024-03-08', () => {
    const real = nvdaSessions();
    expect(real[0]).toBe('2014-12-01');
    expect(real.at(-1)).toBe('2024-03-08');
    const mine = tradingDays(real[0]!, real.at(-1)!);
    const realSet = new Set(real);
    const mineSet = new Set(mine);
    expect(real.filter((d) => !mineSet.has(d))).toEqual([]);
    expect(mine.filter((d) => !realSet.has(d))).toEqual([]);
    expect(mine.length).toBe(real.length);
  });
});

describe('holidays by rule', () => {
  it('computes Easter by the Gregorian computus (dates from the US Naval Observatory table)', () => {
    expect(easterSunday(2000)).toBe('2000-04-23');
    expect(easterSunday(2008)).toBe('2008-03-23');
    expect(easterSunday(2011)).toBe('2011-04-24');
    expect(easterSunday(2019)).toBe('2019-04-21');
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2035)).toBe('2035-03-25');
  });

  it('closes on Good Friday', () => {
    expect(isTradingDay('2024-03-29')).toBe(false);
    expect(isTradingDay('2030-04-19')).toBe(false);
    expect(isTradingDay('2035-03-23')).toBe(false);
  });

  it('does not observe New Year\'s Day on the Friday before when it falls on a Saturday', () => {
    expect(isTradingDay('2021-12-31')).toBe(true);
    expect(isTradingDay('2027-12-31')).toBe(true);
    expect(isTradingDay('2023-01-02')).toBe(false); // Sunday 2023-01-01 → Monday
  });

  it('moves Saturday holidays to Friday and Sunday holidays to Monday', () => {
    expect(isTradingDay('2026-07-03')).toBe(false); // July 4 2026 is a Saturday
    expect(isTradingDay('2021-07-05')).toBe(false); // July 4 2021 is a Sunday
    expect(isTradingDay('2022-12-26')).toBe(false); // Christmas 2022 is a Sunday
    expect(isTradingDay('2021-12-24')).toBe(false); // Christmas 2021 is a Saturday
  });

  it('observes Juneteenth from 2022 on only', () => {
    expect(isTradingDay('2021-06-18')).toBe(true);
    expect(isTradingDay('2022-06-20')).toBe(false); // Sunday 2022-06-19 → Monday
    expect(isTradingDay('2023-06-19')).toBe(false);
    expect(isTradingDay('2027-06-18')).toBe(false); // Saturday 2027-06-19 → Friday
  });

  it('keeps the unscheduled closures, including those before the GSPC window', () => {
    for (const d of ['2001-09-11', '2001-09-12', '2001-09-13', '2001-09-14', '2004-06-11', '2007-01-02', '2012-10-29', '2012-10-30', '2018-12-05', '2025-01-09']) {
      expect(isTradingDay(d)).toBe(false);
    }
    expect(isTradingDay('2001-09-17')).toBe(true);
  });

  it('lists ten rule holidays in an ordinary year (Juneteenth makes ten from 2022)', () => {
    expect(marketHolidays(2019).map((h) => h.date)).toEqual([
      '2019-01-01', '2019-01-21', '2019-02-18', '2019-04-19', '2019-05-27', '2019-07-04', '2019-09-02', '2019-11-28', '2019-12-25',
    ]);
    expect(marketHolidays(2026)).toHaveLength(10);
  });
});

describe('sessions and early closes', () => {
  it('closes at 13:00 on the day after Thanksgiving, Christmas Eve and July 3 when they are sessions', () => {
    expect(sessionOpenClose('2024-11-29').close).toBe(Date.UTC(2024, 10, 29, 18, 0));
    expect(sessionOpenClose('2024-12-24').close).toBe(Date.UTC(2024, 11, 24, 18, 0));
    expect(sessionOpenClose('2024-07-03').close).toBe(Date.UTC(2024, 6, 3, 17, 0));
    expect(sessionOpenClose('2023-07-03').earlyClose).toBe(true);
    expect(isEarlyClose('2024-07-02')).toBe(false);
    expect(isEarlyClose('2026-07-03')).toBe(false); // a holiday, not a short session
  });

  it('opens at 09:30 and closes at 16:00 New York on every session 2000–2035 (checked against Intl)', () => {
    const sessions = tradingDays('2000-01-01', '2035-12-31');
    expect(sessions.length).toBeGreaterThan(36 * 250); // 36 years of about 252 sessions
    for (const date of sessions) {
      const s = sessionOpenClose(date);
      expect(intlNewYork(s.open)).toEqual({ date, time: '09:30' });
      expect(intlNewYork(s.close)).toEqual({ date, time: s.earlyClose ? '13:00' : '16:00' });
    }
  });

  it('follows both US daylight-saving rules (2007 on, and 1987–2006)', () => {
    expect(newYorkUtcOffset('2026-03-06')).toBe(-5);
    expect(newYorkUtcOffset('2026-03-09')).toBe(-4);
    expect(newYorkUtcOffset('2026-10-30')).toBe(-4);
    expect(newYorkUtcOffset('2026-11-02')).toBe(-5);
    expect(newYorkUtcOffset('2006-03-31')).toBe(-5);
    expect(newYorkUtcOffset('2006-04-03')).toBe(-4);
    expect(newYorkUtcOffset('2006-10-27')).toBe(-4);
    expect(newYorkUtcOffset('2006-10-30')).toBe(-5);
  });

  it('refuses a session time for a day without a session', () => {
    expect(() => sessionOpenClose('2026-11-26')).toThrow(RangeError);
  });

  it('finds the session in progress at an instant', () => {
    expect(sessionAt(Date.UTC(2026, 10, 20, 18, 0))?.date).toBe('2026-11-20');
    expect(sessionAt(Date.UTC(2026, 10, 20, 21, 0))).toBeNull(); // 16:00 EST, the bell has rung
    expect(sessionAt(Date.UTC(2026, 10, 21, 16, 0))).toBeNull(); // Saturday
  });
});

describe('stepping and bounds', () => {
  it('steps over weekends and holidays', () => {
    expect(nextTradingDay('2024-11-27')).toBe('2024-11-29');
    expect(previousTradingDay('2025-01-10')).toBe('2025-01-08');
    expect(nextTradingDay('2026-07-02')).toBe('2026-07-06');
    expect(previousTradingDay('2019-01-02')).toBe('2018-12-31');
  });

  it('includes both ends of a range', () => {
    expect(tradingDays('2024-12-23', '2024-12-27')).toEqual(['2024-12-23', '2024-12-24', '2024-12-26', '2024-12-27']);
    expect(tradingDays('2024-12-25', '2024-12-25')).toEqual([]);
  });

  it('counts the sessions after a day up to another (Christmas 2024 and Thanksgiving 2024 skipped)', () => {
    expect(tradingDaysUntil('2024-12-20', '2024-12-26')).toBe(3);
    expect(tradingDaysUntil('2024-12-21', '2024-12-23')).toBe(1);
    expect(tradingDaysUntil('2024-12-23', '2024-12-23')).toBe(0);
    expect(tradingDaysUntil('2024-11-26', '2024-12-02')).toBe(3); // 27th, 29th, 2nd
    expect(tradingDaysUntil('2024-12-02', '2024-11-26')).toBe(-3);
  });

  it('counts a whole year as the exchange does (252 sessions in 2024, 250 in 2023, 251 in 2022)', () => {
    expect(tradingDaysUntil('2023-12-31', '2024-12-31')).toBe(252);
    expect(tradingDaysUntil('2022-12-31', '2023-12-31')).toBe(250);
    expect(tradingDaysUntil('2021-12-31', '2022-12-31')).toBe(251);
  });

  it('counts as many sessions as a walk of every day between, over ranges across years, weekends and closures', () => {
    // Reference: the sessions tradingDays lists day by day, less `from` itself when it is one.
    const walk = (from: string, to: string) => tradingDays(from, to).length - (isTradingDay(from) ? 1 : 0);
    let seed = 11;
    const day = () => isoDate(Date.UTC(2000, 0, 1) / 86_400_000 + ((seed = (seed * 48271) % 2147483647) % 13_149));
    const pairs: Array<[string, string]> = [['2000-01-01', '2035-12-31'], ['2001-09-10', '2001-09-17'], ['2012-10-26', '2012-10-31'], ['2035-12-31', '2035-12-31']];
    for (let i = 0; i < 300; i++) {
      const a = day();
      const near = isoDate(parseIsoDate(a) + (seed % 20));
      pairs.push([a, day()], [a, near > '2035-12-31' ? '2035-12-31' : near]);
    }
    for (const [x, y] of pairs) {
      const [from, to] = x <= y ? [x, y] : [y, x];
      if (tradingDaysUntil(from, to) !== walk(from, to)) expect([from, to, tradingDaysUntil(from, to)]).toEqual([from, to, walk(from, to)]);
      expect(tradingDaysUntil(to, from) + walk(from, to)).toBe(0); // the same count, negated
    }
  });

  it('reads the New York date of an instant across midnight and both offsets (checked against Intl)', () => {
    for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2035, 11, 31); t += 7 * 3_600_000 + 13 * 60_000) {
      expect(newYorkDate(t)).toBe(intlNewYork(t).date);
    }
  });

  it('writes and reads day numbers as Date does (the arithmetic of both directions, every day 1600–2400, the ends of four-digit years, fractions)', () => {
    const viaDate = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
    const days: number[] = [];
    for (let n = Date.UTC(1600, 0, 1) / 86_400_000; n <= Date.UTC(2400, 11, 31) / 86_400_000; n++) days.push(n);
    days.push(-354_286, -354_285, 2_932_896, 2_932_897, -719_528, 20_000.5, -0.25, 0);
    expect(days.length).toBeGreaterThan(290_000);
    for (const n of days) if (isoDate(n) !== viaDate(n)) expect([n, isoDate(n)]).toEqual([n, viaDate(n)]);
    for (let n = Date.UTC(2000, 0, 1) / 86_400_000; n <= Date.UTC(2035, 11, 31) / 86_400_000; n++) if (parseIsoDate(isoDate(n)) !== n) expect(parseIsoDate(isoDate(n))).toBe(n);
    expect(() => isoDate(Number.NaN)).toThrow(RangeError);
  });

  it('rejects malformed dates and years outside 2000–2035', () => {
    expect(() => isTradingDay('2024-02-30')).toThrow(RangeError);
    expect(() => isTradingDay('20240105')).toThrow(RangeError);
    expect(() => isTradingDay('1999-12-31')).toThrow(RangeError);
    expect(() => tradingDays('2035-12-01', '2036-01-31')).toThrow(RangeError);
  });
});
