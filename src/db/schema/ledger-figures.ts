/**
 * @module db/schema/ledger-figures
 * The figures of a ledger kept per chain head (issue 27): the scorecard and
 * the monthly rollups of a chain (or of one replay in the replay chain), as
 * the route sends them, with the head they were computed at. A replay of a
 * few hundred thousand records takes tens of seconds to tally and match
 * against its baselines; kept here, a restart answers from the row instead
 * of computing again. Derived, not the ledger: a row is served only while
 * the chain's head is still the one it names (and the figures' definitions
 * are the ones it was computed with); any append makes it stale, and the
 * next computation replaces it.
 */
import { bigint, customType, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** PostgreSQL's bytea: bytes in, bytes out (PGlite answers a Uint8Array, postgres.js a Buffer, which is one). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const ledgerFigures = pgTable(
  'ledger_figures',
  {
    /** `live` or `replay`. */
    chain: text('chain').notNull(),
    /** The replay the figures are of ('' for the whole chain: the live ledger). */
    book: text('book').notNull(),
    /** What the figures are: `scorecard`, `monthly:YYYY-MM`. */
    figure: text('figure').notNull(),
    /** What else they depend on besides the head (the scorecard's day, for its trailing windows; '' for none). */
    variant: text('variant').notNull(),
    /** A fingerprint of the figures' definitions (the response schema and method): a row of other definitions is not served. */
    definitions: text('definitions').notNull(),
    /** The chain head they were computed at. */
    headSeq: bigint('head_seq', { mode: 'number' }).notNull(),
    headHash: text('head_hash').notNull(),
    /**
     * The figures' JSON (the bytes the route sends), gzipped off the event loop: a replay month's 1.3 MB
     * written as text held the server's thread ~70 ms while the embedded database compressed it (TOAST).
     */
    body: bytea('body').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.chain, table.book, table.figure] })],
);

export type LedgerFigureRow = typeof ledgerFigures.$inferSelect;
