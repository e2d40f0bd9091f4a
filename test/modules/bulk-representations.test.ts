/**
 * CSV and NDJSON of the ledger and the breakouts history (issue 31), by
 * `Accept` with quality values and by `format=`: the same page as the JSON
 * answer, row for row, with the same `Link`; 406 `not_acceptable` in the
 * Error shape for an Accept naming none of the three. And the ledger's
 * `Link` (by offset) walks it whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { LEDGER_CSV_COLUMNS } from '../../src/ledger/serialize';
import { HISTORY_CSV_COLUMNS } from '../../src/modules/signals/model';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';
import { parseCsvLine } from '../../src/providers/universe';
import { linksOf } from '../helpers/links';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  expect((await ctx.request('/api/breakouts')).status).toBe(200); // the first run: signals in the history and the ledger
});
afterAll(() => ctx.close());

type Row = Record<string, unknown>;

/** Each bulk list: a page with an offset (so its Link has next, prev and first), its rows in JSON, the CSV columns and what the first column holds. */
const LISTS = [
  {
    name: 'the ledger',
    path: '/api/transparency/ledger?limit=5&offset=5',
    rows: (body: Row) => body.records as Row[],
    columns: LEDGER_CSV_COLUMNS as readonly string[],
    first: (row: Row) => String(row.seq),
  },
  {
    name: 'the breakouts history',
    path: '/api/breakouts/history?limit=5&offset=5',
    rows: (body: Row) => body.items as Row[],
    columns: HISTORY_CSV_COLUMNS as readonly string[],
    first: (row: Row) => String(row.id),
  },
];

describe.each(LISTS)('$name in CSV and NDJSON', ({ path, rows, columns, first }) => {
  let json: { rows: Row[]; link: string | null };
  beforeAll(async () => {
    const response = await ctx.request(path);
    expect(response.status).toBe(200);
    json = { rows: rows((await response.json()) as Row), link: response.headers.get('link') };
    expect(json.rows).toHaveLength(5);
    expect(Object.keys(linksOf(response.headers)).sort()).toEqual(['first', 'next', 'prev']);
  });

  it('answers text/csv (RFC 4180, a header row, CRLF) by Accept, the JSON page row for row, with its Link', async () => {
    const response = await ctx.request(path, { headers: { accept: 'text/csv' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('link')).toBe(json.link);
    const text = await response.text();
    expect(text.endsWith('\r\n')).toBe(true);
    // No cell of these rows holds a line break (JSON text escapes its own): a record per CRLF line.
    const [header, ...records] = text.slice(0, -2).split('\r\n').map(parseCsvLine);
    expect(header).toEqual([...columns]);
    expect(records.map((r) => r[0])).toEqual(json.rows.map(first));
    for (const record of records) expect(record).toHaveLength(columns.length);
  });

  it('answers NDJSON by format= (over Accept): one JSON row per LF-terminated line, the JSON page', async () => {
    const response = await ctx.request(`${path}&format=ndjson`, { headers: { accept: 'application/json' } });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    // The same links, each keeping the query's format.
    expect(response.headers.get('link')).toBe(json.link!.replaceAll('?limit=5', '?limit=5&format=ndjson'));
    const text = await response.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(json.rows);
  });

  it('weighs Accept by quality, and answers 406 not_acceptable in the Error shape when it takes none of the three', async () => {
    const weighed = await ctx.request(path, { headers: { accept: 'text/csv;q=0.4, application/x-ndjson;q=0.9, application/json;q=0.1' } });
    expect(weighed.headers.get('content-type')).toStartWith('application/x-ndjson');
    const refused = await ctx.request(path, { headers: { accept: 'image/png, application/json;q=0' } });
    expect(refused.status).toBe(406);
    const error = await errorBody(refused);
    expect(error.code).toBe('not_acceptable');
    expect(error.requestId).toBeString();
  });

  it('refuses a format it does not know (400)', async () => {
    expect((await ctx.request(`${path}&format=xml`)).status).toBe(400);
  });
});

describe('the ledger’s Link', () => {
  it('walks every record by rel="next" (offset + limit), none twice or missing', async () => {
    const whole = (await ctx.json<{ count: number; records: Row[] }>('/api/transparency/ledger?limit=1000')).body;
    expect(whole.count).toBeLessThanOrEqual(1000); // one page holds them all: the reference
    const limit = Math.ceil(whole.count / 3); // three pages
    const walked: Row[] = [];
    let url: string | undefined = `/api/transparency/ledger?limit=${limit}`;
    while (url !== undefined) {
      const response = await ctx.request(url);
      walked.push(...((await response.json()) as { records: Row[] }).records);
      url = linksOf(response.headers).next;
    }
    expect(walked.map((r) => r.seq)).toEqual(whole.records.map((r) => r.seq));
    expect(walked).toHaveLength(whole.count);
  });
});
