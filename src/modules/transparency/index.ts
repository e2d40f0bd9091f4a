/** @module modules/transparency — the Transparency tag: the public ledger. */
import { Elysia } from 'elysia';
import { verifyLedger } from '../../ledger/verify';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { CheckpointsResponse, LedgerQuery, LedgerResponse, MonthlyQuery, MonthlyResponse, ScorecardResponse, VerifyResponse } from './model';
import { monthly, scorecard } from './performance';
import { ledgerCsv, ledgerPage } from './service';

const VERIFY_METHOD =
  'Each record is canonical JSON (RFC 8785 key order); hash = SHA-256(prev_hash ‖ body) in hex, the first prev_hash is 64 zeros; seq runs 1, 2, 3… without gaps; every checkpoint (seq, head hash) must match the recomputed chain.';

export function transparencyModule(services: Services) {
  const { ledger } = services;
  return new Elysia({ name: 'breakline/transparency' })
    .get('/api/transparency/ledger', ({ query }) => ledgerPage(ledger, query), {
      query: LedgerQuery,
      response: withErrors(LedgerResponse, 400, 429),
      detail: {
        tags: ['Transparency'],
        summary: 'The signal ledger',
        description:
          'Every signal ever surfaced, in chain order, as it was recorded when first surfaced, with its state changes and outcome, each with its seq and hash. Filters: since/until (detection date), patternType, scoreBand; limit default 500, at most 1000; offset.',
      },
    })
    .get(
      '/api/transparency/ledger.csv',
      ({ set }) => {
        set.headers['content-type'] = 'text/csv; charset=utf-8';
        set.headers['cache-control'] = 'public, max-age=60';
        set.headers['content-disposition'] = 'attachment; filename="breakline-ledger.csv"';
        return new Response(ledgerCsv(ledger));
      },
      {
        detail: {
          tags: ['Transparency'],
          summary: 'The whole ledger as CSV',
          description: 'All signal records with their current state and outcome, one row each (RFC 4180). Public and cacheable for a minute. Additive.',
        },
      },
    )
    .get('/api/transparency/monthly', ({ query }) => monthly(ledger, query.month), {
      query: MonthlyQuery,
      response: withErrors(MonthlyResponse, 400, 429),
      detail: {
        tags: ['Transparency'],
        summary: 'Monthly rollup',
        description:
          "The signals detected in a month (UTC) and their outcomes from the ledger: counts, hit rate (Wilson 95% interval), average R (t interval), total R, expectancy and profit factor, overall and by pattern, score band, timeframe and direction, plus every signal's outcome. 400 for a missing or invalid month.",
      },
    })
    .get('/api/scorecard', () => scorecard(ledger), {
      response: withErrors(ScorecardResponse, 429),
      detail: {
        tags: ['Transparency'],
        summary: 'Scorecard',
        description:
          'All-time and trailing 30/90/365-day track record from the ledger; calibration by score band (hit rate with Wilson intervals, average R with t intervals, counts), by pattern, regime and timeframe; and whether higher bands really do better, stated from the computed numbers (Spearman ρ across bands, interval overlap per step).',
      },
    })
    .get('/api/transparency/verify', async () => ({ ...(await verifyLedger(ledger)), method: VERIFY_METHOD }), {
      response: withErrors(VerifyResponse, 429),
      detail: {
        tags: ['Transparency'],
        summary: 'Verify the ledger',
        description: 'Recomputes the whole hash chain and the checkpoints; names the first record that does not hold. Additive.',
      },
    })
    .get(
      '/api/transparency/checkpoints',
      async () => {
        const checkpoints = await ledger.checkpoints();
        return { count: checkpoints.length, checkpoints: checkpoints.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
      },
      {
        response: withErrors(CheckpointsResponse, 429),
        detail: {
          tags: ['Transparency'],
          summary: 'Ledger checkpoints',
          description: 'Published (seq, head hash, count, time) checkpoints: keep a copy; every later ledger must start with them. Additive.',
        },
      },
    );
}
