/**
 * @module stream/caps
 * Connection caps. `ConnectionCaps` counts in this process: at most `max` open
 * streams (then 503), and at most `perKey` for one client key — its IP, or its
 * user once signed in (stream/visibility `connectionKey`) — then 429; both
 * refusals carry `Retry-After`. `StreamCaps` (the event streams of an
 * instance: /api/stream and GraphQL's) adds the per-client cap across the
 * cluster when Redis is configured (stream/caps-redis): a client holds at most
 * `perKey` streams over all instances together. While Redis cannot be asked
 * it falls back to the per-instance count alone (a client may then hold
 * `perKey` on each instance), and its streams are counted into Redis again by
 * the next heartbeat once it answers. The instance cap stays per instance:
 * it bounds this process's sockets.
 */
import { AppError } from '../errors';
import type { SharedStreamCounts } from './caps-redis';

export interface CapLimits {
  max: number;
  perKey: number;
  retryAfterSeconds: number;
}

export class ConnectionCaps {
  private readonly perKey = new Map<string, number>();
  private open = 0;

  constructor(readonly limits: CapLimits) {}

  /** Counts a connection in, or refuses it (`unavailable` 503, `rate_limited` 429). */
  admit(key: string): void {
    const { max, perKey, retryAfterSeconds } = this.limits;
    if (this.open >= max) throw new AppError('unavailable', `This instance holds its maximum of ${max} streams; retry in ${retryAfterSeconds}s`, retryAfter(retryAfterSeconds));
    const held = this.perKey.get(key) ?? 0;
    if (held >= perKey) throw perClientRefusal(this.limits);
    this.perKey.set(key, held + 1);
    this.open++;
  }

  release(key: string): void {
    const left = (this.perKey.get(key) ?? 1) - 1;
    if (left > 0) this.perKey.set(key, left);
    else this.perKey.delete(key);
    this.open--;
  }
}

const retryAfter = (seconds: number) => ({ 'retry-after': String(seconds) });

function perClientRefusal({ perKey, retryAfterSeconds }: CapLimits): AppError {
  return new AppError('rate_limited', `At most ${perKey} open streams per client; close one or retry in ${retryAfterSeconds}s`, retryAfter(retryAfterSeconds));
}

/** The caps of an instance's event streams: per instance, and per client across the cluster when `shared` is given. */
export class StreamCaps {
  private readonly local: ConnectionCaps;

  constructor(
    readonly limits: CapLimits,
    private readonly shared?: SharedStreamCounts,
  ) {
    this.local = new ConnectionCaps(limits);
    shared?.start();
  }

  /** Counts a stream in, or refuses it (`unavailable` 503 past this instance's cap, `rate_limited` 429 past the client's). */
  async admit(key: string): Promise<void> {
    this.local.admit(key);
    if (!this.shared) return;
    let admitted: boolean;
    try {
      admitted = await this.shared.admit(key, this.limits.perKey);
    } catch {
      this.shared.holdUncounted(key); // Redis is down: the per-instance count alone, counted in again when it answers
      return;
    }
    if (admitted) return;
    this.local.release(key);
    throw perClientRefusal(this.limits);
  }

  release(key: string): void {
    this.local.release(key);
    this.shared?.release(key);
  }

  /** Gives this instance's places in the shared count back (the services close). */
  async close(): Promise<void> {
    await this.shared?.close();
  }
}
