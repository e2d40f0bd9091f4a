/**
 * @module db/repositories/journal
 * A user's trade journal entries, typed (the side checked), every method
 * scoped by the owner's id. Pages run by entry time (then id).
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { storedAs } from '../../domain/check';
import { DIRECTIONS, literalUnion, type Direction } from '../../domain/signal';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { journalEntries, type JournalEntryRow } from '../schema';
import { beyondCursor, pageOffset, pageOrder } from './keyset';

export interface StoredJournalEntry extends Omit<JournalEntryRow, 'side'> {
  side: Direction;
}

const sideOf = storedAs(literalUnion(DIRECTIONS));
const storedEntry = (row: JournalEntryRow): StoredJournalEntry => ({ ...row, side: sideOf(row.side, `journal entry ${row.id} side`) });

export interface JournalFilter {
  symbol?: string;
  tag?: string;
}

export class JournalRepository {
  constructor(private readonly db: Db) {}

  async create(row: JournalEntryRow): Promise<StoredJournalEntry> {
    const [inserted] = await this.db.insert(journalEntries).values(row).returning();
    return storedEntry(inserted!);
  }

  async page(userId: string, filter: JournalFilter, page: PageRequest): Promise<{ rows: StoredJournalEntry[]; total: number }> {
    const scope = this.scope(userId, filter);
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(journalEntries)
        .where(and(scope, beyondCursor(journalEntries.entryAt, journalEntries.id, page)))
        .orderBy(...pageOrder(journalEntries.entryAt, journalEntries.id, page.order))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(journalEntries).where(scope),
    ]);
    return { rows: rows.map(storedEntry), total: Number(totals[0]?.n ?? 0) };
  }

  /** Every entry of the user matching the filter, oldest first (the summary and exports). */
  async all(userId: string, filter: JournalFilter = {}): Promise<StoredJournalEntry[]> {
    const rows = await this.db.select().from(journalEntries).where(this.scope(userId, filter)).orderBy(asc(journalEntries.entryAt), asc(journalEntries.id));
    return rows.map(storedEntry);
  }

  async get(userId: string, id: string): Promise<StoredJournalEntry | undefined> {
    const [row] = await this.db.select().from(journalEntries).where(and(eq(journalEntries.id, id), eq(journalEntries.userId, userId))).limit(1);
    return row && storedEntry(row);
  }

  async update(userId: string, id: string, changes: Partial<Omit<JournalEntryRow, 'id' | 'userId' | 'createdAt'>>): Promise<StoredJournalEntry | undefined> {
    const [row] = await this.db.update(journalEntries).set(changes).where(and(eq(journalEntries.id, id), eq(journalEntries.userId, userId))).returning();
    return row && storedEntry(row);
  }

  async delete(userId: string, id: string): Promise<StoredJournalEntry | undefined> {
    const [row] = await this.db.delete(journalEntries).where(and(eq(journalEntries.id, id), eq(journalEntries.userId, userId))).returning();
    return row && storedEntry(row);
  }

  private scope(userId: string, filter: JournalFilter) {
    return and(
      eq(journalEntries.userId, userId),
      filter.symbol ? eq(journalEntries.symbol, filter.symbol) : undefined,
      filter.tag ? sql`${filter.tag} = any(${journalEntries.tags})` : undefined,
    );
  }
}
