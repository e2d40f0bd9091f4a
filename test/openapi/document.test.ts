/**
 * The OpenAPI document as client generators and strict validators read it
 * (issue 12): named shared schemas, plain integers with their real defaults,
 * no TypeBox keywords, the API-Version header and its 400 on every operation,
 * the response headers, `servers`, `security`, hyphen-free operationIds, and
 * every schema accepted by ajv in strict mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createTestContext, type TestContext } from '../helpers/app';
import { DocumentValidator, operations, resolve, servedDocument, type OpenApiDocument, type Operation, type Schema } from '../helpers/openapi';

/** Every subschema of a schema, the schema included. */
function* walk(schema: unknown): Generator<Schema> {
  if (typeof schema !== 'object' || schema === null) return;
  if (Array.isArray(schema)) {
    for (const item of schema) yield* walk(item);
    return;
  }
  const node = schema as Schema;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    // Values, not schemas (an example may well have a field named `error`).
    if (key === 'examples' || key === 'example' || key === 'default' || key === 'const' || key === 'enum') continue;
    if (key === 'properties' || key === 'patternProperties' || key === '$defs') for (const sub of Object.values(value as Schema)) yield* walk(sub);
    else if (typeof value === 'object') yield* walk(value);
  }
}

describe('the published OpenAPI document', () => {
  let ctx: TestContext;
  let doc: OpenApiDocument;
  let ops: Operation[];
  beforeAll(async () => {
    ctx = await createTestContext();
    doc = await servedDocument(ctx.request);
    ops = operations(doc);
  });
  afterAll(() => ctx.close());

  const allSchemas = () => [
    ...Object.values(doc.components.schemas),
    ...ops.flatMap((op) => [...op.parameters.map((p) => p.schema), ...Object.values(op.responses).flatMap((c) => Object.values(c))]),
  ];

  it('declares the spec’s interface version 1.0.0, OpenAPI 3.1 and the relative server', () => {
    expect(doc.openapi).toStartWith('3.1');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('names the shared schemas once and references them', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of ['BreakoutSignal', 'Error', 'PageMeta', 'PriceBar', 'BarsResponse', 'BreakoutsResponse', 'HealthResponse', 'SnapshotResponse', 'EarningsResponse', 'SectorRotationResponse', 'FloatResponse', 'UniverseScanResponse', 'LedgerResponse', 'InsiderResponse', 'OptionsFlowResponse', 'ShortInterestResponse', 'OptionsAnalyzeResponse', 'ConfluenceResponse']) {
      expect(names).toContain(name);
    }
    const text = JSON.stringify(doc.paths);
    // One Error, referenced from every operation; BreakoutSignal only inside the components that use it.
    expect(text).not.toContain('"title":"Error"');
    expect(text).not.toContain('"title":"BreakoutSignal"');
    expect(JSON.stringify(doc.components.schemas.BreakoutsResponse)).toContain('#/components/schemas/BreakoutSignal');
    expect(JSON.stringify(doc.components.schemas.SectorRotationPage)).toContain('#/components/schemas/PageMeta');
    expect(ops.length).toBeGreaterThan(20);
    for (const op of ops) expect(op.raw.responses && JSON.stringify((op.raw.responses as Schema)['400'])).toContain('#/components/schemas/Error');
  });

  it('publishes plain integers, no coercion unions, no TypeBox error keyword, no x- keys inside schemas', () => {
    const schemas = [...allSchemas().flatMap((s) => [...walk(s)])];
    expect(schemas.length).toBeGreaterThan(500);
    expect(schemas.filter((s) => s.format === 'integer' || s.format === 'numeric')).toEqual([]);
    expect(schemas.filter((s) => 'error' in s && typeof s.error === 'string')).toEqual([]);
    expect(schemas.filter((s) => Object.keys(s).some((k) => k.startsWith('x-')))).toEqual([]);
    const counts = doc.components.schemas.PageMeta!.properties as Record<string, Schema>;
    expect(counts.limit).toEqual(expect.objectContaining({ type: 'integer' }));
    expect((doc.components.schemas.HealthResponse!.properties as Record<string, Schema>).uptime).toEqual(expect.objectContaining({ type: 'integer' }));
  });

  it('types the confluence vote as an integer enum', () => {
    const factors = (doc.components.schemas.ConfluenceResponse!.properties as Record<string, Schema>).factors!;
    const vote = ((factors.items as Schema).properties as Record<string, Schema>).vote;
    expect(vote).toEqual(expect.objectContaining({ type: 'integer', enum: [-1, 0, 1] }));
  });

  it('publishes the spec’s parameter defaults, and a parameter with a default is not required', () => {
    const param = (path: string, name: string) => ops.find((o) => o.path === path)!.parameters.find((p) => p.name === name)!;
    const expected: [string, string, unknown][] = [
      ['/api/breakouts', 'timeframe', 'daily'],
      ['/api/breakouts', 'limit', 50],
      ['/api/breakouts', 'order', 'desc'],
      ['/api/breakouts', 'offset', 0],
      ['/api/transparency/ledger', 'limit', 500],
      ['/api/transparency/ledger', 'offset', 0],
      ['/api/options/analyze', 'iv', 0.3],
      ['/api/options/analyze', 'expiryDays', 30],
      ['/api/options/analyze', 'r', 0.05],
      ['/api/options/analyze', 'direction', 'long'],
      ['/api/confluence', 'lookback', 20],
      ['/api/altdata/insider', 'windowDays', 30],
      ['/api/universe/scan', 'limit', 50],
      ['/api/universe/scan', 'minAvgVolUsd', 200_000_000],
      ['/api/universe/scan', 'source', 'sp500'],
    ];
    for (const [path, name, value] of expected) {
      const p = param(path, name);
      expect({ path, name, default: p.schema.default, required: p.required }).toEqual({ path, name, default: value, required: false });
    }
    for (const op of ops) for (const p of op.parameters) if (p.schema.default !== undefined) expect({ op: op.operationId, p: p.name, required: p.required }).toEqual({ op: op.operationId, p: p.name, required: false });
  });

  it('types walk-forward’s months one way, an integer 1, 3 or 6, in the query and in the body', () => {
    for (const op of ops.filter((o) => o.path === '/api/backtest/walk-forward')) {
      const months = op.parameters.find((p) => p.name === 'months')!;
      expect({ method: op.method, required: months.required, schema: months.schema }).toEqual({
        method: op.method,
        required: false,
        schema: expect.objectContaining({ type: 'integer', enum: [1, 3, 6], default: 6 }),
      });
    }
    const body = doc.components.schemas.WalkForwardBody!.properties as Record<string, Schema>;
    expect(body.months).toEqual(expect.objectContaining({ type: 'integer', enum: [1, 3, 6] }));
  });

  it('states that range becomes required in 1.1.0', () => {
    const range = ops.find((o) => o.path === '/api/bars')!.raw.parameters as Schema[];
    expect(range.find((p) => p.name === 'range')).toEqual(expect.objectContaining({ required: false, 'x-required-from-api-version': '1.1.0' }));
  });

  it('publishes every date parameter as format: date within the database range', () => {
    const dates = ops.flatMap((op) => op.parameters.filter((p) => ['asOf', 'since', 'until', 'from', 'to'].includes(p.name)));
    expect(dates.length).toBeGreaterThan(5);
    for (const p of dates) expect(p.schema).toEqual(expect.objectContaining({ type: 'string', format: 'date', pattern: '^(19|20|21)\\d{2}-\\d{2}-\\d{2}$' }));
  });

  it('declares the API-Version header, its 400, 429, a default error and the response headers on every operation', () => {
    for (const op of ops) {
      const header = op.parameters.find((p) => p.in === 'header' && p.name === 'API-Version');
      expect({ op: op.operationId, header: header?.schema }).toEqual({ op: op.operationId, header: { type: 'string', enum: ['1.0.0', '1.1.0'] } });
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '429', 'default']));
      // Its success: 200, or 201 Created / 202 Accepted (account writes).
      expect({ op: op.operationId, success: Object.keys(op.responses).some((status) => /^20[012]$/.test(status)) }).toEqual({ op: op.operationId, success: true });
      const responses = op.raw.responses as Record<string, Schema>;
      for (const [status, response] of Object.entries(responses)) {
        const headers = Object.keys((resolve<Schema>(doc, response).headers as Schema) ?? {});
        expect(headers).toEqual(expect.arrayContaining(['X-Request-Id', 'API-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
        if (status === '429') expect(headers).toContain('Retry-After');
      }
    }
  });

  it('declares the Link header on the 200 of every paged operation: each envelope the spec lists, the bars and the ledger', () => {
    const linkedOps = ops.filter((op) => 'Link' in ((resolve<Schema>(doc, (op.raw.responses as Record<string, Schema>)['200'] ?? {}).headers as Schema) ?? {}));
    const linked = linkedOps.map((op) => op.path).sort();
    // The spec's envelope endpoints (interface.md, Pagination), with our path syntax for [symbol].
    const envelopes = ['/api/breakouts', '/api/breakouts/history', '/api/breakouts/notifications', '/api/notifications', '/api/watchlists', '/api/alerts/v2', '/api/journal/entries', '/api/filings/{symbol}', '/api/social/{symbol}', '/api/community/feed', '/api/earnings', '/api/insider', '/api/short-interest', '/api/exports', '/api/sector-rotation/v2'];
    expect(linked).toEqual(expect.arrayContaining([...envelopes, '/api/bars', '/api/transparency/ledger']));
    // And no operation without a page says it.
    for (const op of linkedOps) {
      const { path } = op;
      const schema = resolve<Schema>(doc, op.responses['200']!['application/json'] as Schema);
      expect({ path, paged: path === '/api/transparency/ledger' || 'pagination' in ((schema.properties as Schema) ?? {}) }).toEqual({ path, paged: true });
    }
    expect(String(doc.components.headers!.Link!.description)).toContain('RFC 8288');
  });

  it('uses operationIds without hyphens, unique, and says security: [] on public operations', () => {
    const ids = ops.map((o) => o.operationId);
    expect(ids.filter((id) => !/^[A-Za-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of ops) expect(Array.isArray(op.raw.security)).toBe(true);
    expect(ops.find((o) => o.path === '/api/bars')!.raw.security).toEqual([]);
  });

  it('documents the CSV ledger and the costly rate-limit class', () => {
    const csv = ops.find((o) => o.path === '/api/transparency/ledger.csv');
    expect(csv?.responses['200']).toHaveProperty('text/csv');
    const costly = ops.filter((o) => o.raw['x-rate-limit-class'] === 'costly').map((o) => o.path).sort();
    expect(costly).toEqual(['/api/breakouts', '/api/scorecard', '/api/transparency/ledger.csv', '/api/transparency/monthly', '/api/transparency/verify', '/api/universe/scan']);
    expect(ops.find((o) => o.path === '/api/breakouts')!.raw['x-rate-limit-class-when-present']).toBe('asOf');
    // Over a replay's chain only (issue 27): the live ledger's scorecard and months stay in the ordinary quota.
    for (const path of ['/api/scorecard', '/api/transparency/monthly']) {
      const op = ops.find((o) => o.path === path)!;
      expect([op.raw['x-rate-limit-class-when-present'], op.raw['x-rate-limit-class-when-equals']]).toEqual(['source', 'replay']);
      expect(String(op.raw.description)).toContain('costly when `source=replay`');
    }
    expect(String(ops.find((o) => o.path === '/api/universe/scan')!.raw.description)).toContain('RATE_LIMIT_COSTLY_QUOTA');
  });

  it('compiles every schema under ajv strict mode', () => {
    const validator = new DocumentValidator(doc);
    const schemas = allSchemas();
    expect(schemas.length).toBeGreaterThan(100);
    for (const schema of schemas) validator.compile(schema);
  });
});

describe('the document asked for while the routes are compiled for their first requests', () => {
  it('is served whole, the same as when asked alone (the shared Error schema is never changed under the generator)', async () => {
    const fresh = await createTestContext();
    try {
      const paths = ['/openapi/json', '/api/health', '/api/bars?symbol=AAPL', '/api/snapshot?symbol=AAPL', '/api/scorecard', '/api/nope', '/api/keys', '/openapi/json'];
      const replies = await Promise.all(paths.map((path) => fresh.request(path)));
      const documents = replies.filter((_, i) => paths[i] === '/openapi/json');
      expect(documents.map((r) => r.status)).toEqual([200, 200]);
      const [first, second] = await Promise.all(documents.map((r) => r.text()));
      expect(first).toBe(second!);
      expect(first).toBe(await (await fresh.request('/openapi/json')).text());
    } finally {
      await fresh.close();
    }
  });
});
