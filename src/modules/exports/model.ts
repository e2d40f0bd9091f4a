/** @module modules/exports/model — schemas and OpenAPI text of /api/exports (ledger slices and journals as files, made in the background). */
import { t, type Static } from 'elysia';
import { EXPORT_DATASETS, EXPORT_FORMATS, EXPORT_STATUSES } from '../../db/repositories/exports';
import { literalUnion, SCORE_BANDS } from '../../domain/signal';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { BodySymbol, idParam } from '../shared/account';

const Day = (field: string, description: string) => t.String({ format: 'date', description, error: `Body field 'filters.${field}' must be a calendar date YYYY-MM-DD` });

export const CreateExportBody = t.Object(
  {
    dataset: { ...literalUnion(EXPORT_DATASETS), description: 'ledger: a slice of the public ledger (the filters of GET /api/transparency/ledger); journal: your trade journal', error: `Body field 'dataset' must be one of: ${EXPORT_DATASETS.join(', ')}` },
    format: t.Optional({ ...literalUnion(EXPORT_FORMATS), description: 'csv (default; RFC 4180 with a header) or json', error: `Body field 'format' must be one of: ${EXPORT_FORMATS.join(', ')}` }),
    filters: t.Optional(
      t.Object(
        {
          since: t.Optional(Day('since', 'ledger: signals detected on or after this date')),
          until: t.Optional(Day('until', 'ledger: signals detected on or before this date')),
          patternType: t.Optional(t.String({ pattern: '^[a-z0-9_]{1,40}$', description: 'ledger: only this pattern type', error: "Body field 'filters.patternType' must be a pattern type such as flat_base" })),
          scoreBand: t.Optional({ ...literalUnion(SCORE_BANDS), description: 'ledger: only this score band', error: `Body field 'filters.scoreBand' must be one of: ${SCORE_BANDS.join(', ')}` }),
          symbol: t.Optional({ ...BodySymbol, description: 'journal: only this symbol', error: "Body field 'filters.symbol' must be a symbol" }),
          tag: t.Optional(t.String({ minLength: 1, maxLength: 40, description: 'journal: only entries with this tag', error: "Body field 'filters.tag' must be 1–40 characters" })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ dataset: 'ledger', format: 'csv', filters: { since: '2026-01-01', until: '2026-06-30', scoreBand: 'elite' } }, { dataset: 'journal', format: 'json' }] },
);
export type CreateExportBody = Static<typeof CreateExportBody>;

export const ExportParams = t.Object({ id: idParam('exp', 'export') });
export const ExportQuery = t.Object(PageQuery);
export type ExportQuery = Static<typeof ExportQuery>;

const NullableTime = (description: string) => t.Union([t.String({ format: 'date-time' }), t.Null()], { description });
export const ExportSchema = t.Object(
  {
    id: t.String({ description: 'exp_…' }),
    dataset: literalUnion(EXPORT_DATASETS),
    format: literalUnion(EXPORT_FORMATS),
    filters: t.Record(t.String(), t.String(), { description: 'As asked' }),
    status: { ...literalUnion(EXPORT_STATUSES), description: 'queued → running → done | failed; a done export becomes expired after EXPORTS_TTL_HOURS' },
    rowCount: t.Union([t.Integer(), t.Null()], { description: 'Records in the file, once done' }),
    sizeBytes: t.Union([t.Integer(), t.Null()], { description: 'Size of the file, once done' }),
    error: t.Union([t.String(), t.Null()], { description: 'Why it failed' }),
    createdAt: t.String({ format: 'date-time' }),
    startedAt: NullableTime('When it started running'),
    finishedAt: NullableTime('When it was done or failed'),
    expiresAt: NullableTime('When a done export stops being downloadable'),
    downloadUrl: t.Union([t.String(), t.Null()], { description: 'Where to download it while done' }),
  },
  {
    title: 'Export',
    examples: [
      {
        id: 'exp_1q8w4k6d3m9x0c2v7b5n',
        dataset: 'ledger',
        format: 'csv',
        filters: { since: '2026-01-01', scoreBand: 'elite' },
        status: 'done',
        rowCount: 412,
        sizeBytes: 118734,
        error: null,
        createdAt: '2026-11-20T14:02:11.000Z',
        startedAt: '2026-11-20T14:02:11.050Z',
        finishedAt: '2026-11-20T14:02:11.900Z',
        expiresAt: '2026-11-21T14:02:11.900Z',
        downloadUrl: '/api/exports/exp_1q8w4k6d3m9x0c2v7b5n/download',
      },
    ],
  },
);
export type ExportSchema = Static<typeof ExportSchema>;
export const ExportPage = t.Object({ items: t.Array(ExportSchema), pagination: PageMetaSchema }, { title: 'ExportPage' });
export type ExportPage = Static<typeof ExportPage>;

const TAGS = ['Exports'];
const TIER = 'The pro tier or above (403 below).';
export const EXPORT_DOCS = {
  create: {
    tags: TAGS,
    summary: 'Export a ledger slice or your journal',
    description: `Queues a job and answers 202 with it; the file is made in the background (any instance), then listed as done with its row count and size, downloadable by you only until it expires (EXPORTS_TTL_HOURS, default 24). Ledger rows are the records of GET /api/transparency/ledger (CSV: the columns of /api/transparency/ledger.csv). ${TIER} Needs a session. Send Idempotency-Key to make a retry safe.`,
  },
  list: { tags: TAGS, summary: 'Your exports', description: `Newest first, in the pagination envelope. ${TIER} A session or an API key.` },
  get: { tags: TAGS, summary: 'One of your exports', description: `Its status, row count and size. Another user’s export is 404. ${TIER} A session or an API key.` },
  download: {
    tags: TAGS,
    summary: 'Download an export',
    description: `The file, streamed (text/csv or application/json, as an attachment). Not done yet or failed: 409; expired: 410; another user’s: 404. ${TIER} A session or an API key.`,
    responses: {
      200: {
        description: 'The file as an attachment: CSV (a header row, then a row per record, CRLF line ends) or JSON (the job’s dataset, format, filters and generatedAt, then its records)',
        content: {
          'text/csv': { schema: { type: 'string' as const } },
          'application/json': {
            schema: {
              type: 'object' as const,
              required: ['dataset', 'format', 'filters', 'generatedAt', 'records'],
              properties: {
                dataset: { type: 'string' as const, enum: ['ledger', 'journal'] },
                format: { type: 'string' as const, enum: ['json'] },
                filters: { type: 'object' as const },
                generatedAt: { type: 'string' as const, format: 'date-time' },
                records: { type: 'array' as const, items: { type: 'object' as const }, description: 'Ledger records as GET /api/transparency/ledger gives them, or journal entries as GET /api/journal/entries' },
              },
            },
          },
        },
      },
    },
  },
};
