/**
 * @module db/repositories/idempotency
 * `Idempotency-Key` records (plugins/idempotency): a request claims its key
 * with one INSERT … ON CONFLICT, so of two concurrent requests with the same
 * key exactly one proceeds, on any instance; an expired record is claimed
 * over in the same statement.
 */
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from '../client';
import { idempotencyKeys, type IdempotencyKeyRow } from '../schema';

export type Claim =
  | { state: 'claimed' }
  | { state: 'replay'; status: number; body: string }
  | { state: 'in_progress' }
  | { state: 'mismatch'; route: string };

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  async claim(row: Omit<IdempotencyKeyRow, 'responseStatus' | 'responseBody'>): Promise<Claim> {
    const [claimed] = await this.db
      .insert(idempotencyKeys)
      .values({ ...row, responseStatus: null, responseBody: null })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        set: { route: row.route, bodyHash: row.bodyHash, responseStatus: null, responseBody: null, createdAt: row.createdAt, expiresAt: row.expiresAt },
        setWhere: lte(idempotencyKeys.expiresAt, row.createdAt),
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed) return { state: 'claimed' };
    const [held] = await this.db.select().from(idempotencyKeys).where(this.which(row.userId, row.key)).limit(1);
    if (!held) return this.claim(row); // released between the two statements
    if (held.route !== row.route || held.bodyHash !== row.bodyHash) return { state: 'mismatch', route: held.route };
    if (held.responseStatus === null || held.responseBody === null) return { state: 'in_progress' };
    return { state: 'replay', status: held.responseStatus, body: held.responseBody };
  }

  /** Stores the answer of the request that holds the claim. */
  async complete(userId: string, key: string, status: number, body: string): Promise<void> {
    await this.db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(and(this.which(userId, key), isNull(idempotencyKeys.responseStatus)));
  }

  /** Drops a claim whose request failed (no answer stored), so the key can be used again. */
  async release(userId: string, key: string): Promise<void> {
    await this.db.delete(idempotencyKeys).where(and(this.which(userId, key), isNull(idempotencyKeys.responseStatus)));
  }

  /** Deletes expired records; answers how many. */
  async purge(now: Date): Promise<number> {
    return (await this.db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key })).length;
  }

  private which(userId: string, key: string) {
    return and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  }
}
