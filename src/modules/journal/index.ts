/** @module modules/journal — /api/journal: a user's trade journal and its summary (reads: session or API key; writes: session). */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { idempotency } from '../../plugins/idempotency';
import type { Services } from '../../services';
import { createdWithErrors, jsonBody } from '../shared/account';
import { withErrors } from '../shared/params';
import { CreateEntryBody, EntryPage, EntryParams, EntryQuery, EntrySchema, JOURNAL_DOCS, SummaryQuery, SummarySchema, UpdateEntryBody } from './model';
import { createEntry, deleteEntry, getEntry, listEntries, summarize, updateEntry } from './service';
import { bodyLimit } from '../../plugins/body-limit';

export function journalModule(services: Services) {
  const limit = services.config.account.bodyLimitBytes;
  return new Elysia({ name: 'breakline/journal' })
    .use(bodyLimit)
    .use(auth(services.auth.authenticator))
    .use(idempotency(services))
    .get('/api/journal/entries', ({ principal, query }) => listEntries(services, principal, query), {
      auth: 'GET /api/journal/entries',
      query: EntryQuery,
      response: withErrors(EntryPage, 400, 401, 429),
      detail: { ...JOURNAL_DOCS.list },
    })
    .post(
      '/api/journal/entries',
      async ({ principal, body, set }) => {
        set.status = 201;
        return createEntry(services, principal, body);
      },
      { auth: 'POST /api/journal/entries', idempotent: true, ...jsonBody(limit, CreateEntryBody), response: createdWithErrors(EntrySchema, 400, 401, 403, 409, 413, 429), detail: { ...JOURNAL_DOCS.create } },
    )
    .get('/api/journal/entries/:id', ({ principal, params }) => getEntry(services, principal, params.id), {
      auth: 'GET /api/journal/entries/:id',
      params: EntryParams,
      response: withErrors(EntrySchema, 400, 401, 404, 429),
      detail: { ...JOURNAL_DOCS.get },
    })
    .patch('/api/journal/entries/:id', ({ principal, params, body }) => updateEntry(services, principal, params.id, body), {
      auth: 'PATCH /api/journal/entries/:id',
      params: EntryParams,
      ...jsonBody(limit, UpdateEntryBody),
      response: withErrors(EntrySchema, 400, 401, 403, 404, 413, 429),
      detail: { ...JOURNAL_DOCS.update },
    })
    .delete('/api/journal/entries/:id', ({ principal, params }) => deleteEntry(services, principal, params.id), {
      auth: 'DELETE /api/journal/entries/:id',
      params: EntryParams,
      response: withErrors(EntrySchema, 400, 401, 403, 404, 429),
      detail: { ...JOURNAL_DOCS.delete },
    })
    .get('/api/journal/summary', ({ principal, query }) => summarize(services, principal, query), {
      auth: 'GET /api/journal/summary',
      query: SummaryQuery,
      response: withErrors(SummarySchema, 400, 401, 429),
      detail: { ...JOURNAL_DOCS.summary },
    });
}
