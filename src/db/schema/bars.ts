/**
 * @module db/schema/bars
 * OHLCV bars fetched from a provider, one row per (source, symbol, timeframe,
 * bar open time). Rows are written when a provider answers and read back instead of
 * asking the provider again while fresh (see `provider_cache`).
 */
import { bigint, doublePrecision, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

export const bars = pgTable(
  'bars',
  {
    symbol: text('symbol').notNull(),
    /** `daily` | `4h` | `1h` */
    timeframe: text('timeframe').notNull(),
    /** Bar open time, epoch milliseconds UTC (daily bars: 00:00 UTC of the session date). */
    ts: bigint('ts', { mode: 'number' }).notNull(),
    open: doublePrecision('open').notNull(),
    high: doublePrecision('high').notNull(),
    low: doublePrecision('low').notNull(),
    close: doublePrecision('close').notNull(),
    volume: doublePrecision('volume').notNull(),
    source: text('source').notNull(),
  },
  // Keyed by source first: switching providers never mixes two vendors' bars.
  (table) => [primaryKey({ columns: [table.source, table.symbol, table.timeframe, table.ts] })],
);

export type BarRow = typeof bars.$inferSelect;
