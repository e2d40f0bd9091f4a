/**
 * @module bench/stall/clock
 * The wall clock the servers run on. The synthetic market quotes only during
 * its sessions (New York, 09:30–16:00 on trading days): outside one a stream
 * gets each symbol's quote once and no gap means anything. So, when the
 * market is shut now (and not `--seeded`, whose ledgers are stamped with the
 * real clock), or when `--at ISO` asks, every process the bench starts runs
 * under libfaketime (Debian's `faketime` package, preloaded) with its wall
 * clock shifted by one fixed offset: a relative `FAKETIME` ("-86400"), the
 * same shift for the servers started later, and
 * `FAKETIME_DONT_FAKE_MONOTONIC=1` so timers and `performance.now()` keep the
 * real monotonic clock (libfaketime's README, "Faking only the realtime
 * clock"). The bench reads quote ages on that shifted clock too. `--at now`
 * keeps the real clock. The server itself has no clock option: nothing in
 * production code knows about this.
 */
import { existsSync } from 'node:fs';
import { isEarlyClose, previousTradingDay, sessionAt, sessionOpenClose } from '../../src/providers/calendar';
import { newYorkDate } from '../../src/providers/new-york-time';
import { flag, seeded } from './options';

/**
 * libfaketime's thread-safe build, preloaded straight into the server (not
 * through the `faketime` wrapper, which forks: the bench must signal and read
 * the server's own pid).
 */
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';

export interface BenchClock {
  /** Added to the real wall clock in every process the bench starts (ms; 0: the real clock). */
  shiftMs: number;
  /** What the table says about the clock. */
  label: string;
  /** The servers' wall clock, read in the bench. */
  now(): number;
  /** The environment a process needs to run on the shifted clock. */
  env: Record<string, string>;
}

/** 10:00 New York on the latest full (not early-close) trading day before `epochMs`'s New York date: six hours of session ahead. */
export function latestSessionMorning(epochMs: number): number {
  let date = previousTradingDay(newYorkDate(epochMs));
  while (isEarlyClose(date)) date = previousTradingDay(date);
  return sessionOpenClose(date).open + 30 * 60_000;
}

function shifted(shiftMs: number, label: string): BenchClock {
  if (shiftMs === 0) return { shiftMs, label, now: Date.now, env: {} };
  const seconds = Math.round(shiftMs / 1000);
  return {
    shiftMs: seconds * 1000,
    label,
    now: () => Date.now() + seconds * 1000,
    env: { LD_PRELOAD: LIBFAKETIME, FAKETIME: `${seconds >= 0 ? '+' : ''}${seconds}`, FAKETIME_DONT_FAKE_MONOTONIC: '1' },
  };
}

function chooseClock(): BenchClock {
  const at = flag('--at')[0];
  const real = Date.now();
  if (at === 'now') return shifted(0, 'the real clock (--at now)');
  const target = at ? Date.parse(at) : !seeded && sessionAt(real) === null ? latestSessionMorning(real) : undefined;
  if (target === undefined) return shifted(0, seeded ? 'the real clock (--seeded)' : 'the real clock (in a session)');
  if (Number.isNaN(target)) throw new Error(`bench/stall: --at ${at}: not a time (ISO 8601, or now)`);
  if (!existsSync(LIBFAKETIME)) {
    if (at) throw new Error('bench/stall: --at needs libfaketime (apt-get install faketime)');
    console.error('bench/stall: the synthetic market is shut now and faketime is not installed (apt-get install faketime): quotes cannot be judged');
    return shifted(0, 'the real clock (no session; faketime missing)');
  }
  return shifted(target - real, `shifted to ${new Date(target).toISOString()} at the start (libfaketime)`);
}

export const clock = chooseClock();
