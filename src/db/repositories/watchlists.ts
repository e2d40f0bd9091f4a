/**
 * @module db/repositories/watchlists
 * A user's watchlists with their symbols. Every method takes the owner's id
 * and touches only their rows (another user's watchlist is not found). Adding
 * a watchlist or symbols takes a per-user advisory lock in its transaction,
 * so the tier's caps hold under concurrent requests on every instance.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { alertRules, watchlists, watchlistSymbols, type WatchlistRow } from '../schema';
import { beyondCursor, pageOffset, pageOrder } from './keyset';

export interface StoredWatchlist extends WatchlistRow {
  /** In the order they were added. */
  symbols: string[];
}

/** Anything with drizzle's query API: the database or a transaction. */
type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

/** Serialises a user's capped writes (the same lock on every instance sharing the database). */
export async function lockUser(tx: Tx, scope: string, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}:${userId}`}, 0))`);
}

export class WatchlistsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Creates a watchlist with its first symbols unless the user already has
   * `cap` of them; undefined when the cap is reached.
   */
  async create(row: WatchlistRow, symbols: readonly string[], cap: number): Promise<StoredWatchlist | undefined> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'watchlists', row.userId);
      const [held] = await tx.select({ n: count() }).from(watchlists).where(eq(watchlists.userId, row.userId));
      if (Number(held?.n ?? 0) >= cap) return undefined;
      await tx.insert(watchlists).values(row);
      if (symbols.length) await tx.insert(watchlistSymbols).values(symbols.map((symbol) => ({ watchlistId: row.id, symbol, addedAt: row.createdAt })));
      return { ...row, symbols: [...symbols] };
    });
  }

  /** A page of the user's watchlists by (createdAt, id), with the total. */
  async page(userId: string, page: PageRequest): Promise<{ rows: StoredWatchlist[]; total: number }> {
    const owner = eq(watchlists.userId, userId);
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(watchlists)
        .where(and(owner, beyondCursor(watchlists.createdAt, watchlists.id, page)))
        .orderBy(...pageOrder(watchlists.createdAt, watchlists.id, page.order))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(watchlists).where(owner),
    ]);
    return { rows: await this.withSymbols(rows), total: Number(totals[0]?.n ?? 0) };
  }

  async get(userId: string, id: string): Promise<StoredWatchlist | undefined> {
    const [row] = await this.db.select().from(watchlists).where(and(eq(watchlists.id, id), eq(watchlists.userId, userId))).limit(1);
    return row && (await this.withSymbols([row]))[0];
  }

  async rename(userId: string, id: string, name: string, at: Date): Promise<StoredWatchlist | undefined> {
    const [row] = await this.db.update(watchlists).set({ name, updatedAt: at }).where(and(eq(watchlists.id, id), eq(watchlists.userId, userId))).returning();
    return row && (await this.withSymbols([row]))[0];
  }

  /** Ids and names of the user's alert rules that watch this watchlist (it cannot be deleted under them). */
  async rulesWatching(userId: string, id: string): Promise<{ id: string; name: string }[]> {
    return this.db.select({ id: alertRules.id, name: alertRules.name }).from(alertRules).where(and(eq(alertRules.watchlistId, id), eq(alertRules.userId, userId)));
  }

  /** Deletes the watchlist and its symbols; answers it as it was, or undefined when the user has no such watchlist. */
  async delete(userId: string, id: string): Promise<StoredWatchlist | undefined> {
    const found = await this.get(userId, id);
    if (!found) return undefined;
    await this.db.delete(watchlists).where(and(eq(watchlists.id, id), eq(watchlists.userId, userId)));
    return found;
  }

  /**
   * Adds symbols (those already there are kept as they were) unless the
   * watchlist would then hold more than `cap`: `capped` with the count it holds.
   */
  async addSymbols(userId: string, id: string, symbols: readonly string[], cap: number, at: Date): Promise<StoredWatchlist | { capped: number } | undefined> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'watchlists', userId);
      const [row] = await tx.select().from(watchlists).where(and(eq(watchlists.id, id), eq(watchlists.userId, userId))).limit(1);
      if (!row) return undefined;
      const held = (await tx.select({ symbol: watchlistSymbols.symbol }).from(watchlistSymbols).where(eq(watchlistSymbols.watchlistId, id))).map((r) => r.symbol);
      const fresh = [...new Set(symbols)].filter((s) => !held.includes(s));
      if (held.length + fresh.length > cap) return { capped: held.length };
      if (fresh.length) {
        await tx.insert(watchlistSymbols).values(fresh.map((symbol) => ({ watchlistId: id, symbol, addedAt: at })));
        await tx.update(watchlists).set({ updatedAt: at }).where(eq(watchlists.id, id));
      }
      return { ...row, updatedAt: fresh.length ? at : row.updatedAt, symbols: [...held, ...fresh] };
    });
  }

  /** Removes a symbol; undefined when the user has no such watchlist, `false` in `removed` when it did not hold the symbol. */
  async removeSymbol(userId: string, id: string, symbol: string, at: Date): Promise<{ watchlist: StoredWatchlist; removed: boolean } | undefined> {
    const found = await this.get(userId, id);
    if (!found) return undefined;
    const removed = await this.db.delete(watchlistSymbols).where(and(eq(watchlistSymbols.watchlistId, id), eq(watchlistSymbols.symbol, symbol))).returning();
    if (removed.length === 0) return { watchlist: found, removed: false };
    await this.db.update(watchlists).set({ updatedAt: at }).where(eq(watchlists.id, id));
    return { watchlist: { ...found, updatedAt: at, symbols: found.symbols.filter((s) => s !== symbol) }, removed: true };
  }

  /** Every symbol on any of the user's watchlists, with the watchlists holding it. */
  async symbolsOfUser(userId: string): Promise<Map<string, string[]>> {
    const rows = await this.db
      .select({ symbol: watchlistSymbols.symbol, watchlistId: watchlistSymbols.watchlistId })
      .from(watchlistSymbols)
      .innerJoin(watchlists, eq(watchlists.id, watchlistSymbols.watchlistId))
      .where(eq(watchlists.userId, userId));
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.symbol, [...(out.get(r.symbol) ?? []), r.watchlistId]);
    return out;
  }

  /** The symbols of each of the given watchlists (whoever owns them: the alert job reads every rule's). */
  async symbolsOf(ids: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await this.db
      .select()
      .from(watchlistSymbols)
      .where(inArray(watchlistSymbols.watchlistId, [...ids]))
      .orderBy(asc(watchlistSymbols.addedAt), asc(watchlistSymbols.symbol));
    for (const r of rows) out.get(r.watchlistId)?.push(r.symbol);
    return out;
  }

  private async withSymbols(rows: WatchlistRow[]): Promise<StoredWatchlist[]> {
    const symbols = await this.symbolsOf(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, symbols: symbols.get(r.id) ?? [] }));
  }
}
