/**
 * @module auth/user-tiers
 * Where a user's current tier lives, and how a change reaches their API keys.
 *
 * The tier of record is the identity provider's: each session token carries
 * it in its tier claim (auth/session), stated at the token's `iat`. Breakline
 * keeps no user accounts, so it records each user's newest statement in
 * `user_tiers` (db/schema/user-tiers) when it sees one it has not recorded:
 * on a session's first request to an instance, and whenever the claim
 * differs from what that instance recorded last (a bounded memory per
 * instance saves the write otherwise). An API key's verification reads that
 * row with the key on every request, so a key acts at the lower of its own
 * tier and its owner's (auth/api-keys `keyPrincipal`) on every instance from
 * the moment the statement is written: a downgrade reaches a user's keys the
 * next time the user signs in anywhere. The operator states a tier directly
 * (`breakline keys tier --user U --tier T`, e.g. from a billing system) for
 * users who only use keys. A statement older than the one held is ignored, so
 * an old token still in use never undoes a newer one (of two stated in the
 * same second, the later seen wins); a token without `iat` counts as stated
 * when it is seen.
 *
 * Recording never fails a request: when the database cannot take it, the
 * statement is logged and tried again on the user's next request.
 *
 * @example
 * const tiers = new UserTiers(new UserTiersRepository(db), log);
 * tiers.observe({ userId: 'usr_1', tier: 'free', kind: 'session' }, new Date('2026-11-20T15:00:00Z'));
 * await tiers.state('usr_1', 'pro', 'operator'); // => true
 */
import type { TierSource, UserTiersRepository } from '../db/repositories/user-tiers';
import type { Tier } from '../domain/tiers';
import type { Logger } from '../log';
import { Lru } from '../lru';
import type { Principal } from './principal';

/** Users whose last recorded statement an instance remembers (beyond them a statement is written again, harmlessly). */
const REMEMBERED_USERS = 50_000;

export class UserTiers {
  /** The statement this instance last recorded (or found newer) per user. */
  private readonly recorded = new Lru<string, { tier: Tier; statedAt: number }>({ maxEntries: REMEMBERED_USERS });

  constructor(
    private readonly repository: UserTiersRepository,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** A verified session's tier, as stated at `statedAt`: recorded in the background when this instance has not recorded it. */
  observe(session: Principal, statedAt: Date | undefined): void {
    const at = statedAt?.getTime() ?? this.now();
    const held = this.recorded.get(session.userId);
    if (held && (held.tier === session.tier || held.statedAt > at)) return;
    this.recorded.set(session.userId, { tier: session.tier, statedAt: at });
    this.repository.state(session.userId, session.tier, new Date(at), 'session').catch((error: unknown) => {
      this.recorded.delete(session.userId);
      this.log.warn('a user tier could not be recorded; tried again on the next request', { userId: session.userId, tier: session.tier, error: String(error) });
    });
  }

  /** Records `tier` for `userId` as stated now (the operator's word); whether it was newer than the one held. */
  async state(userId: string, tier: Tier, source: TierSource = 'operator'): Promise<boolean> {
    const at = this.now();
    const written = await this.repository.state(userId, tier, new Date(at), source);
    if (written) this.recorded.set(userId, { tier, statedAt: at });
    return written;
  }

  /** The user's tier as last stated, if ever. */
  of(userId: string): ReturnType<UserTiersRepository['of']> {
    return this.repository.of(userId);
  }
}
