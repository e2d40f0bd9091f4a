/**
 * @module providers/live/health
 * A streaming provider's health: its REST self-check, then its stream's state
 * on top. A stream the vendor refuses (keys, plan, connections used up) is
 * `down` with the vendor's words, whatever REST says; one reconnecting or
 * filling a gap is `degraded`; one streaming is what REST says.
 *
 * @example
 * withStream(await quoteSelfCheck('alpaca', 'SPY', quote), feed.status()); // => { status: 'down', message: 'alpaca stream: 402 auth failed', … }
 */
import type { SelfCheck } from '../types';
import type { LiveStatus } from './types';

export function withStream(rest: SelfCheck, stream: LiveStatus | undefined): SelfCheck {
  if (!stream || stream.state === 'idle' || stream.state === 'streaming') return rest;
  const message = stream.message ?? `${stream.vendor} stream: ${stream.state}`;
  if (stream.state === 'refused') return { ...rest, status: 'down', message };
  if (rest.status === 'down') return rest;
  return { ...rest, status: 'degraded', message };
}
