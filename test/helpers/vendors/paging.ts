/**
 * @module test/helpers/vendors/paging
 * What the loopback vendor servers share: windows of recorded bars by the
 * clock (Alpaca's 30Min and Polygon's minute multiples both align to the
 * clock), opaque page tokens, and a small 429 switch.
 */
import type { RecordedBar } from './recordings';

/** Recorded bars rolled into clock-aligned windows of `sizeMs` (first open, max high, min low, last close, summed volume). */
export function clockWindows(bars: readonly RecordedBar[], sizeMs: number, windowOf: (t: number) => number = (t) => Math.floor(t / sizeMs) * sizeMs): RecordedBar[] {
  const out: RecordedBar[] = [];
  for (const bar of bars) {
    const start = windowOf(bar.t);
    const last = out.at(-1);
    if (last && last.t === start && last.symbol === bar.symbol) {
      last.h = Math.max(last.h, bar.h);
      last.l = Math.min(last.l, bar.l);
      last.c = bar.c;
      last.vw = (last.vw * last.v + bar.vw * bar.v) / (last.v + bar.v || 1);
      last.v += bar.v;
      last.n += bar.n;
    } else out.push({ ...bar, t: start });
  }
  return out;
}

/** An opaque page token for an offset, and back (base64 as both vendors' tokens look). */
export const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64');
export function pageOffset(token: string | null): number {
  if (!token) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'));
  return match ? Number(match[1]) : -1;
}

/** Answers 429 (with `Retry-After`) to the next `count` requests a test asks for. */
export class TooManyRequests {
  private left = 0;
  private retryAfter = '1';
  refused = 0;

  next(count: number, retryAfter = '1'): void {
    this.left = count;
    this.retryAfter = retryAfter;
  }

  /** The 429 response to send now, or undefined. */
  take(body: unknown): Response | undefined {
    if (this.left <= 0) return undefined;
    this.left--;
    this.refused++;
    return Response.json(body, { status: 429, headers: { 'retry-after': this.retryAfter } });
  }
}
