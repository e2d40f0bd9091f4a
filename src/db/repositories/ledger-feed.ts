/**
 * @module db/repositories/ledger-feed
 * What was appended to a chain, told once its transaction has committed
 * (issue 27): the head before and after, and each signal or outcome record
 * with its facts (ledger-facts `AppliedRecord`, the JSON the appender had in
 * hand). A trade book of the chain (ledger/book) folds a segment that starts
 * at the head it holds into its trades, instead of reading the chain again.
 * Told after the commit, never from inside the transaction: a book must not
 * hold records a rollback took back. A listener that misses a segment (another
 * instance appended, or no book was held) finds its head behind the chain's
 * and reads only the facts after it.
 *
 * @example
 * feed.listen((segment) => books.appended(segment));
 * feed.tell({ replayId, from, to, records, opens: false });
 */
import type { AppliedRecord } from './ledger-facts';

/** A chain head: the last record's seq and hash. */
export interface FeedHead {
  seq: number;
  hash: string;
}

/** Records appended in one committed transaction. */
export interface AppendedSegment {
  /** The replay they belong to (undefined: the live chain). */
  replayId: string | undefined;
  /** The chain's head before them and after them. */
  from: FeedHead;
  to: FeedHead;
  /** The signal and outcome records among them, in seq order, with their facts. */
  records: readonly AppliedRecord[];
  /** The segment holds the replay's first record: nothing of it came before. */
  opens: boolean;
}

export class LedgerFeed {
  private readonly listeners: ((segment: AppendedSegment) => void)[] = [];

  /** Calls `listener` with each committed segment (synchronously, in commit order). */
  listen(listener: (segment: AppendedSegment) => void): void {
    this.listeners.push(listener);
  }

  /** Tells every listener; a listener's fault is its own (the records are committed either way). */
  tell(segment: AppendedSegment): void {
    for (const listener of this.listeners) {
      try {
        listener(segment);
      } catch {
        // A book that failed to fold a segment reads the facts after its head instead (ledger/book).
      }
    }
  }
}
