/**
 * @module ledger/filter
 * The ledger endpoint's filters (`since`/`until` as whole UTC days,
 * `patternType`, `scoreBand`) as a repository filter: /api/transparency/ledger
 * and the ledger exports read a slice the same way.
 *
 * @example
 * ledgerFilter({ since: '2026-01-01', until: '2026-01-31' });
 * // => { since: 2026-01-01T00:00:00.000Z, until: 2026-01-31T23:59:59.999Z, patternType: undefined, scoreBand: undefined }
 */
import type { LedgerFilter } from '../db/repositories/ledger';

export interface LedgerSliceQuery {
  since?: string;
  until?: string;
  patternType?: string;
  scoreBand?: string;
}

export function ledgerFilter(query: LedgerSliceQuery): LedgerFilter {
  return {
    since: query.since ? new Date(`${query.since}T00:00:00.000Z`) : undefined,
    until: query.until ? new Date(`${query.until}T23:59:59.999Z`) : undefined,
    patternType: query.patternType,
    scoreBand: query.scoreBand,
  };
}
