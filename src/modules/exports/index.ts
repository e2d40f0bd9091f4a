/** @module modules/exports — /api/exports: ledger slices and journals as CSV or JSON files, made in the background (pro tier; who may: auth/route-access). */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { idempotency } from '../../plugins/idempotency';
import type { Services } from '../../services';
import { jsonBody } from '../shared/account';
import { ErrorSchema, withErrors } from '../shared/params';
import { CreateExportBody, EXPORT_DOCS, ExportPage, ExportParams, ExportQuery, ExportSchema } from './model';
import { createExport, downloadExport, getExport, listExports } from './service';
import { bodyLimit } from '../../plugins/body-limit';

export function exportsModule(services: Services) {
  const { 200: accepted, ...createErrors } = withErrors(ExportSchema, 400, 401, 403, 409, 413, 429);
  const downloadErrors = Object.fromEntries([400, 401, 403, 404, 409, 410, 429].map((status) => [status, { description: `Response for status ${status}`, content: { 'application/json': { schema: ErrorSchema } } }]));
  return new Elysia({ name: 'breakline/exports' })
    .use(bodyLimit)
    .use(auth(services.auth.authenticator))
    .use(idempotency(services))
    .post(
      '/api/exports',
      async ({ principal, body, set }) => {
        set.status = 202;
        return createExport(services, principal, body);
      },
      { auth: 'POST /api/exports', idempotent: true, ...jsonBody(services.config.account.bodyLimitBytes, CreateExportBody), response: { 202: accepted, ...createErrors }, detail: { ...EXPORT_DOCS.create } },
    )
    .get('/api/exports', ({ principal, query }) => listExports(services, principal, query), {
      auth: 'GET /api/exports',
      query: ExportQuery,
      response: withErrors(ExportPage, 400, 401, 403, 429),
      detail: { ...EXPORT_DOCS.list },
    })
    .get('/api/exports/:id', ({ principal, params }) => getExport(services, principal, params.id), {
      auth: 'GET /api/exports/:id',
      params: ExportParams,
      response: withErrors(ExportSchema, 400, 401, 403, 404, 429),
      detail: { ...EXPORT_DOCS.get },
    })
    .get('/api/exports/:id/download', ({ principal, params }) => downloadExport(services, principal, params.id), {
      auth: 'GET /api/exports/:id/download',
      params: ExportParams,
      // A streamed file (CSV or JSON): its answers are documented in the detail (Elysia's `response` would replace them and declare text/plain).
      detail: { ...EXPORT_DOCS.download, responses: { ...EXPORT_DOCS.download.responses, ...downloadErrors } },
    });
}
