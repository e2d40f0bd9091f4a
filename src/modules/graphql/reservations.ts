/**
 * @module modules/graphql/reservations
 * The streams reserved by `PUT /api/graphql/stream` (graphql-sse single
 * connection mode), bounded. graphql-sse keeps a reservation in its handler
 * until its stream is opened and then closed: one never opened stays forever
 * (and buffers the results of operations added to it). Here a reservation not
 * opened within `reservationSeconds` is released (`release` opens it and drops
 * it at once, the one way graphql-sse disposes a stream and stops its
 * operations), and the reservations not yet opened are capped per instance
 * (503) and per client key (429), both with `Retry-After` (stream/caps). A
 * token this registry does not hold is no stream: the service answers 404
 * before graphql-sse sees it. An opened stream is never released here: it
 * lives until its connection ends.
 *
 * @example
 * const reservations = new StreamReservations(limits, (token) => dropStream(token));
 * const token = reservations.reserve('ip:10.0.0.1'); // then PUT answers it
 * reservations.opened(token); // its GET opened the stream
 * reservations.closed(token); // the stream ended
 */
import { ConnectionCaps } from '../../stream/caps';

export interface ReservationLimits {
  reservationSeconds: number;
  maxReservations: number;
  maxReservationsPerClient: number;
}

export class StreamReservations {
  /** Reserved and not yet opened, by token, in the order they expire (all live equally long). */
  private readonly pending = new Map<string, { key: string; expiresAt: number }>();
  /** Opened: never released here. */
  private readonly open = new Set<string>();
  private readonly caps: ConnectionCaps;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly limits: ReservationLimits,
    /** Disposes graphql-sse's stream of an expired token (and stops the operations added to it). */
    private readonly release: (token: string) => Promise<void>,
    /** The clock, ms since the epoch (tests move it). */
    private readonly now: () => number = Date.now,
  ) {
    this.caps = new ConnectionCaps({ max: limits.maxReservations, perKey: limits.maxReservationsPerClient, retryAfterSeconds: limits.reservationSeconds });
  }

  /** A new token reserved for `key` (the client), or the refusal of a cap (`unavailable` 503, `rate_limited` 429). */
  reserve(key: string): string {
    this.expire();
    this.caps.admit(key);
    const token = crypto.randomUUID();
    this.pending.set(token, { key, expiresAt: this.now() + this.limits.reservationSeconds * 1000 });
    this.arm();
    return token;
  }

  /** Whether `token` names a stream reserved (and not expired) or open. */
  has(token: string): boolean {
    this.expire();
    return this.open.has(token) || this.pending.has(token);
  }

  /** The reserved stream was opened: it no longer counts against the caps nor expires. */
  opened(token: string): void {
    const reservation = this.pending.get(token);
    if (!reservation) return;
    this.pending.delete(token);
    this.caps.release(reservation.key);
    this.open.add(token);
  }

  /** The stream ended (or the reservation was not made after all): its token names nothing any more. */
  closed(token: string): void {
    const reservation = this.pending.get(token);
    if (reservation) {
      this.pending.delete(token);
      this.caps.release(reservation.key);
    }
    this.open.delete(token);
  }

  /** Reservations not opened in time, released (each request does this first; a timer too, when none comes). */
  expire(): void {
    const now = this.now();
    for (const [token, { expiresAt }] of this.pending) {
      if (expiresAt > now) break;
      this.closed(token);
      void this.release(token);
    }
  }

  /** Stops the timer (the server closes). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.timer) return;
    const first = this.pending.values().next();
    if (first.done) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.expire();
        this.arm();
      },
      Math.max(0, first.value.expiresAt - this.now()) + 1,
    );
    this.timer.unref?.();
  }
}
