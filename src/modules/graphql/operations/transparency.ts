/**
 * @module modules/graphql/operations/transparency
 * The GraphQL fields over the track record: the ledger, the monthly report,
 * the scorecard, the ledger's verification and checkpoints.
 */
import { CheckpointsResponse, LedgerQuery, LedgerResponse, MonthlyQuery, MonthlyResponse, ScorecardQuery, ScorecardResponse, VerifyResponse } from '../../transparency/model';
import { monthly, scorecard } from '../../transparency/performance';
import { checkpoints, ledgerPage, verification } from '../../transparency/service';
import { NONE, operation, type Operation } from '../operation';

export const TRANSPARENCY_QUERIES: Record<string, Operation> = {
  ledger: operation({ route: 'GET /api/transparency/ledger', args: LedgerQuery, result: LedgerResponse, run: ({ services }, q) => ledgerPage(services, q) }),
  monthly: operation({ route: 'GET /api/transparency/monthly', args: MonthlyQuery, result: MonthlyResponse, run: ({ services }, q) => monthly(services, q) }),
  scorecard: operation({ route: 'GET /api/scorecard', args: ScorecardQuery, result: ScorecardResponse, run: ({ services }, q) => scorecard(services, q) }),
  ledgerVerification: operation({ route: 'GET /api/transparency/verify', args: NONE, result: VerifyResponse, run: ({ services }) => verification({ live: services.ledgerVerifier, replay: services.replayVerifier }) }),
  ledgerCheckpoints: operation({ route: 'GET /api/transparency/checkpoints', args: NONE, result: CheckpointsResponse, run: ({ services }) => checkpoints(services.ledger) }),};
