/**
 * @module stream/caps
 * Connection caps of one instance: at most `max` open streams (then 503), and
 * at most `perKey` for one client key — its IP, or its user once signed in
 * (stream/visibility `connectionKey`) — then 429. Both refusals carry
 * `Retry-After`.
 */
import { AppError } from '../errors';

export class ConnectionCaps {
  private readonly perKey = new Map<string, number>();
  private open = 0;

  constructor(private readonly limits: { max: number; perKey: number; retryAfterSeconds: number }) {}

  /** Counts a connection in, or refuses it (`unavailable` 503, `rate_limited` 429). */
  admit(key: string): void {
    const { max, perKey, retryAfterSeconds } = this.limits;
    const retry = { 'retry-after': String(retryAfterSeconds) };
    if (this.open >= max) throw new AppError('unavailable', `This instance holds its maximum of ${max} streams; retry in ${retryAfterSeconds}s`, retry);
    const held = this.perKey.get(key) ?? 0;
    if (held >= perKey) throw new AppError('rate_limited', `At most ${perKey} open streams per client; close one or retry in ${retryAfterSeconds}s`, retry);
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
