/**
 * @module db/repositories/ledger-figures
 * The figures kept per chain head (schema/ledger-figures): one row per chain,
 * replay and figure, replaced when the figure is computed again. `held`
 * answers a row only for the head, variant and definitions asked; `keep`
 * stores one and drops the book's rows of older heads (stale for good: a
 * chain only grows), so a book keeps the figures of its current head only.
 *
 * @example
 * const figures = ledger.figures; // scoped like the ledger (the live chain, or one replay)
 * const body = await figures.held('scorecard', '2026-11-28', definitions, await ledger.head());
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { and, asc, eq, like, lt, lte, not, sql } from 'drizzle-orm';
import { yieldToEventLoop, type Db } from '../client';
import { ledgerFigures } from '../schema';

/** A chain head: the last record's seq and hash. */
export interface Head {
  seq: number;
  hash: string;
}

/** What a kept figure depends on besides its head. */
export interface FigureKey {
  /** `scorecard`, `monthly:YYYY-MM`. */
  figure: string;
  /** The scorecard's day (its trailing windows); '' when nothing else. */
  variant: string;
  /** A fingerprint of the definitions the figure was computed with. */
  definitions: string;
}

/** node:zlib's gzip and gunzip run on its thread pool, not the event loop's thread. */
const [zip, unzip] = [promisify(gzip), promisify(gunzip)];

/**
 * A book's snapshot (ledger/book-snapshot) is kept as rows `book:0`, `book:1`,
 * … of at most `PART_BYTES` gzipped bytes each, written and read one per turn
 * of the event loop, and crossing as base64 text (`encode`/`decode` in the
 * database, Buffer's base64 here): the embedded database turns a bytea
 * parameter or value into bytes in JavaScript on the server's thread — 128 KB
 * cost 46 ms of CPU to write and 27 ms to read, as base64 10.5 and 7 ms
 * (PGlite, load ~7).
 */
const SNAPSHOT = 'book:';
const PART_BYTES = 64 * 1024;

export class LedgerFiguresRepository {
  /**
   * @param chain `live` or `replay`
   * @param book the replay the figures are of ('' for the whole chain)
   */
  constructor(
    private readonly db: Db,
    readonly chain: 'live' | 'replay',
    readonly book = '',
  ) {}

  private where(figure: string) {
    return and(eq(ledgerFigures.chain, this.chain), eq(ledgerFigures.book, this.book), eq(ledgerFigures.figure, figure));
  }

  /** The stored body of `key` when it was computed at `head`'s seq and hash, for the same variant and definitions; else undefined. */
  async held(key: FigureKey, head: Head): Promise<string | undefined> {
    const [row] = await this.db
      .select({ body: ledgerFigures.body, variant: ledgerFigures.variant, definitions: ledgerFigures.definitions, headSeq: ledgerFigures.headSeq, headHash: ledgerFigures.headHash })
      .from(ledgerFigures)
      .where(this.where(key.figure));
    if (!row || row.variant !== key.variant || row.definitions !== key.definitions || row.headSeq !== head.seq || row.headHash !== head.hash) return undefined;
    return new TextDecoder().decode(await unzip(row.body));
  }

  /** The figures (and variants) kept at `head` with `definitions`: which are there, without reading a body. */
  keptAt(head: Head, definitions: string): Promise<{ figure: string; variant: string }[]> {
    return this.db
      .select({ figure: ledgerFigures.figure, variant: ledgerFigures.variant })
      .from(ledgerFigures)
      .where(
        and(
          eq(ledgerFigures.chain, this.chain),
          eq(ledgerFigures.book, this.book),
          eq(ledgerFigures.headSeq, head.seq),
          eq(ledgerFigures.headHash, head.hash),
          eq(ledgerFigures.definitions, definitions),
        ),
      );
  }

  /**
   * Stores `body` as `key`'s figures at `head`, replacing the row of an older
   * head or the same one, and drops the book's rows of older heads. A row of
   * a newer head (another instance on the same database got further) stays.
   */
  async keep(key: FigureKey, head: Head, body: string): Promise<void> {
    const row = { chain: this.chain, book: this.book, ...key, headSeq: head.seq, headHash: head.hash, body: new Uint8Array(await zip(body)), computedAt: new Date() };
    const { variant, definitions, headSeq, headHash, computedAt } = row;
    await this.db.transaction(async (tx) => {
      // A book's snapshot stays: it is read at any head before the current one (the facts after it extend it).
      await tx
        .delete(ledgerFigures)
        .where(and(eq(ledgerFigures.chain, this.chain), eq(ledgerFigures.book, this.book), lt(ledgerFigures.headSeq, head.seq), not(like(ledgerFigures.figure, `${SNAPSHOT}%`))));
      await tx
        .insert(ledgerFigures)
        .values(row)
        .onConflictDoUpdate({ target: [ledgerFigures.chain, ledgerFigures.book, ledgerFigures.figure], set: { variant, definitions, headSeq, headHash, body: row.body, computedAt }, setWhere: lte(ledgerFigures.headSeq, head.seq) });
    });
  }

  /**
   * Stores a book's snapshot at `head` (`format`: its layout), replacing the
   * one kept, unless the one kept is of a newer head (another instance got
   * further). Safe to repeat.
   */
  async keepSnapshot(head: Head, format: string, snapshot: Uint8Array): Promise<void> {
    const bytes = new Uint8Array(await zip(snapshot));
    const parts: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += PART_BYTES) parts.push(bytes.subarray(at, at + PART_BYTES));
    const computedAt = new Date();
    await this.db.transaction(async (tx) => {
      const mine = and(eq(ledgerFigures.chain, this.chain), eq(ledgerFigures.book, this.book), like(ledgerFigures.figure, `${SNAPSHOT}%`));
      const [kept] = await tx.select({ headSeq: ledgerFigures.headSeq }).from(ledgerFigures).where(and(mine, eq(ledgerFigures.figure, `${SNAPSHOT}0`)));
      if (kept && kept.headSeq > head.seq) return;
      await tx.delete(ledgerFigures).where(mine);
      for (const [i, body] of parts.entries()) {
        // A turn of the loop between parts: on the embedded database each statement's bytes are encoded on this thread.
        await yieldToEventLoop();
        const base64 = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64');
        await tx
          .insert(ledgerFigures)
          .values({ chain: this.chain, book: this.book, figure: `${SNAPSHOT}${i}`, variant: String(parts.length), definitions: format, headSeq: head.seq, headHash: head.hash, body: sql`decode(${base64}, 'base64')`, computedAt });
      }
    });
  }

  /** Whether the book's snapshot of layout `format` is kept at `head`. */
  async snapshotAt(head: Head, format: string): Promise<boolean> {
    return (await this.keptAt(head, format)).some((k) => k.figure === `${SNAPSHOT}0`);
  }

  /** The book's kept snapshot of layout `format` and its head, or undefined (none, or of another layout, or torn). */
  async snapshot(format: string): Promise<{ head: Head; bytes: Uint8Array } | undefined> {
    const meta = await this.db
      .select({ figure: ledgerFigures.figure, variant: ledgerFigures.variant, definitions: ledgerFigures.definitions, headSeq: ledgerFigures.headSeq, headHash: ledgerFigures.headHash })
      .from(ledgerFigures)
      .where(and(eq(ledgerFigures.chain, this.chain), eq(ledgerFigures.book, this.book), like(ledgerFigures.figure, `${SNAPSHOT}%`)))
      .orderBy(asc(ledgerFigures.figure));
    const first = meta.find((m) => m.figure === `${SNAPSHOT}0`);
    if (!first || first.definitions !== format) return undefined;
    const parts = Number(first.variant);
    if (meta.length !== parts || meta.some((m) => m.headSeq !== first.headSeq || m.headHash !== first.headHash || m.definitions !== format)) return undefined;
    const bodies: Uint8Array[] = [];
    for (let i = 0; i < parts; i++) {
      await yieldToEventLoop();
      const [row] = await this.db
        .select({ base64: sql<string>`encode(${ledgerFigures.body}, 'base64')`, headSeq: ledgerFigures.headSeq, headHash: ledgerFigures.headHash })
        .from(ledgerFigures)
        .where(this.where(`${SNAPSHOT}${i}`));
      if (!row || row.headSeq !== first.headSeq || row.headHash !== first.headHash) return undefined; // replaced meanwhile: the caller loads from the facts
      bodies.push(Buffer.from(row.base64, 'base64')); // the line breaks `encode` puts every 76 characters are skipped
    }
    return { head: { seq: first.headSeq, hash: first.headHash }, bytes: new Uint8Array(await unzip(Buffer.concat(bodies))) };
  }
}
