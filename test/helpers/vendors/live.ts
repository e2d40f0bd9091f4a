/**
 * @module test/helpers/vendors/live
 * What the live-feed tests share: a clock the test moves (the recorded
 * sessions are in 2025; the feed, the loopback server and its REST answers all
 * read this clock), a logger that keeps its lines, and the recorded minutes of a window rolled up as the expected bar.
 */
import { afterEach } from 'bun:test';
import { createLogger, type Logger } from '../../../src/log';
import type { LiveBar, LiveFeed, WindowClose } from '../../../src/providers/live/types';
import type { RecordedBar } from './recordings';
import { until } from '../until';

export class TestClock {
  constructor(public t: number) {}
  readonly now = () => this.t;
  set(iso: string | number): void {
    this.t = typeof iso === 'number' ? iso : Date.parse(iso);
  }
}

export function keptLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger('debug', (line) => void lines.push(line)), lines };
}

/** The recorded minutes with a start in [start, end) rolled into one bar (first open, extremes, last close, summed volume). */
export function expectedBar(minutes: readonly RecordedBar[], start: number, end: number): { o: number; h: number; l: number; c: number; v: number } {
  const inside = minutes.filter((m) => m.t >= start && m.t < end);
  return {
    o: inside[0]!.o,
    h: Math.max(...inside.map((m) => m.h)),
    l: Math.min(...inside.map((m) => m.l)),
    c: inside.at(-1)!.c,
    v: inside.reduce((sum, m) => sum + m.v, 0),
  };
}

/** Keeps every bar and window close a feed sends. */
export function recordFeed(live: LiveFeed): { bars: LiveBar[]; closes: WindowClose[] } {
  const bars: LiveBar[] = [];
  const closes: WindowClose[] = [];
  live.onBar((bar) => bars.push(bar));
  live.onClose((close) => closes.push(close));
  return { bars, closes };
}

/** Waits until the feed streams and `subscribed()` says the vendor holds its subscriptions. */
export async function streaming(live: LiveFeed, subscribed: () => boolean): Promise<void> {
  await until('streaming', () => live.status().state === 'streaming');
  await until('the subscription at the vendor', subscribed);
}

/**
 * Replays the recorded minutes from `from` (inclusive) to `to` (exclusive): the clock
 * just past each minute's end, the vendor sending it (`minute` returns how many bars went
 * out), and waiting for the feed's bars of it.
 */
export async function replayMinutes(run: { clock: TestClock; bars: readonly LiveBar[]; minute(t: number): number }, from: string, to: string): Promise<void> {
  for (let t = Date.parse(from); t < Date.parse(to); t += 60_000) {
    run.clock.set(t + 60_000 + 50);
    const seen = run.bars.length;
    if (run.minute(t) > 0) await until(`the bars of ${new Date(t).toISOString()}`, () => run.bars.length > seen);
  }
}

/**
 * The replay moves the test clock a minute at a time, and the watchdog may look between a step and
 * its minute's arrival: a silence threshold under a minute would take that moment for a silent socket
 * on a busy machine (and reconnect and backfill, one bar too many). Only the silence tests lower it.
 */
export const REPLAY_SILENT_MS = 90_000;

/** How the stream tests run a vendor's live feed: quick retries and backfill retries, a short grace, fixed jitter, silence as `REPLAY_SILENT_MS` says. */
export const QUICK_LIVE = { silentMs: REPLAY_SILENT_MS, graceMs: 200, backoff: { baseMs: 20, maxMs: 100 }, refusedRetryMs: 400, backfillRetryMs: 100, random: () => 0.5 };

/**
 * A stream test file's loopback vendor server and providers: `setup` starts
 * the server on the first call of a test (later calls in the same test share
 * it: a second connection to the same vendor) and a provider on it with a
 * test clock, a kept log and `QUICK_LIVE`; after each test the providers'
 * feeds stop and the server with them.
 */
export function vendorStreams<S extends { stop(): void; minute(t: number): number }, P extends { live?: LiveFeed }>(startServer: (now: () => number) => S) {
  let server: S | undefined;
  const providers: P[] = [];
  afterEach(async () => {
    for (const provider of providers.splice(0)) await provider.live!.stop();
    server?.stop();
    server = undefined;
  });
  return (start: string, create: (server: S, clock: TestClock, live: typeof QUICK_LIVE & { log: Logger }) => P) => {
    const clock = new TestClock(Date.parse(start));
    const vendor = (server ??= startServer(clock.now));
    const { log, lines } = keptLog();
    const provider = create(vendor, clock, { ...QUICK_LIVE, log });
    providers.push(provider);
    const live = provider.live!;
    return { clock, provider, live, ...recordFeed(live), lines, server: vendor, minute: (t: number) => vendor.minute(t) };
  };
}
