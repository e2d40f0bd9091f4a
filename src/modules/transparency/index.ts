/** @module modules/transparency — the Transparency tag: the public ledger. */
import { Elysia } from 'elysia';
import { verifyLedger } from '../../ledger/verify';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { CheckpointsResponse, LedgerQuery, LedgerResponse, VerifyResponse } from './model';
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
