/**
 * @module db/repositories/signal-ids
 * The two forms of a stored signal's id (domain/signal-id): intraday ids carry
 * their bar's length (`…/PT4H`, `…/PT1H`) since issue 26; intraday signals
 * stored before keep their bare ids (nothing stored is rewritten). Here a
 * given id is found in whichever form it was stored, and a scan's intraday
 * signals keep the bare ids their timeframe stored them under.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { bareSignalId, signalIdForms } from '../../domain/signal-id';
import type { ScanResult } from '../../domain/signal';
import type { Db } from '../client';
import { signals } from '../schema';

/** The id `id` is stored under (the first of its forms that exists: domain/signal-id `signalIdForms`), or undefined. */
export async function storedSignalId(db: Db, id: string): Promise<string | undefined> {
  const forms = signalIdForms(id);
  const rows = await db
    .select({ id: signals.id, timeframe: signals.timeframe })
    .from(signals)
    .where(inArray(signals.id, forms.map((f) => f.id)));
  if (rows.length === 0) return undefined;
  const timeframeOf = new Map(rows.map((r) => [r.id, r.timeframe]));
  return forms.find((f) => timeframeOf.has(f.id) && (f.timeframe === null || timeframeOf.get(f.id) === f.timeframe))?.id;
}

/**
 * The scan's result with each intraday signal that its timeframe stored under
 * the bare id (before ids carried the timeframe) named by that id, so it is
 * tracked on as the same signal (its state, events and ledger records go on
 * under it). Signals of another timeframe with that bare id are left alone: a
 * 1h signal is never the 4h one stored under the same bare id.
 */
export async function withStoredIds(db: Db, result: ScanResult): Promise<ScanResult> {
  if (result.timeframe === 'daily' || result.signals.length === 0) return result;
  const bareOf = new Map(result.signals.map((s) => [s.id, bareSignalId(s.id).bare]));
  const stored = new Set<string>();
  const bares = [...new Set(bareOf.values())];
  for (let i = 0; i < bares.length; i += ROWS_A_STATEMENT) {
    const rows = await db
      .select({ id: signals.id })
      .from(signals)
      .where(and(eq(signals.timeframe, result.timeframe), inArray(signals.id, bares.slice(i, i + ROWS_A_STATEMENT))));
    for (const row of rows) stored.add(row.id);
  }
  if (stored.size === 0) return result;
  return { ...result, signals: result.signals.map((s) => (stored.has(bareOf.get(s.id)!) ? { ...s, id: bareOf.get(s.id)! } : s)) };
}

/** Ids a statement reads at most (bind parameters stay far under PostgreSQL's 65,535). */
const ROWS_A_STATEMENT = 1000;
