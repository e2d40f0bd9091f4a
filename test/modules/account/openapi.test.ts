/**
 * The account features in the OpenAPI document: every operation is there
 * with its tag, text, security scheme ([] on the public community reads),
 * the error statuses it answers, examples of its bodies and answers, and the
 * Idempotency-Key header on every POST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createTestContext, type TestContext } from '../../helpers/app';

type Schema = { examples?: unknown[]; $ref?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
type Op = {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Op>>; components: { schemas?: Record<string, Schema> } };

let ctx: TestContext;
let doc: Doc;
beforeAll(async () => {
  ctx = await createTestContext();
  doc = (await (await ctx.request('/openapi/json')).json()) as Doc;
});
afterAll(() => ctx.close());

type Security = Record<string, string[]>[];
/** A session, or an API key with the scope (auth/route-access). */
const READ: Security = [{ SessionCookie: [] }, { ApiKey: ['read'] }];
const WRITE: Security = [{ SessionCookie: [] }, { ApiKey: ['write'] }];

/** method, path, tag, security (null: public) */
const OPERATIONS: [string, string, string, Security | null][] = [
  ['get', '/api/watchlists', 'Watchlists', READ],
  ['post', '/api/watchlists', 'Watchlists', WRITE],
  ['get', '/api/watchlists/{id}', 'Watchlists', READ],
  ['patch', '/api/watchlists/{id}', 'Watchlists', WRITE],
  ['delete', '/api/watchlists/{id}', 'Watchlists', WRITE],
  ['post', '/api/watchlists/{id}/symbols', 'Watchlists', WRITE],
  ['delete', '/api/watchlists/{id}/symbols/{symbol}', 'Watchlists', WRITE],
  ['get', '/api/alerts/v2', 'Alerts', READ],
  ['post', '/api/alerts/v2', 'Alerts', WRITE],
  ['get', '/api/alerts/v2/{id}', 'Alerts', READ],
  ['patch', '/api/alerts/v2/{id}', 'Alerts', WRITE],
  ['delete', '/api/alerts/v2/{id}', 'Alerts', WRITE],
  ['get', '/api/alerts/v2/{id}/deliveries', 'Alerts', READ],
  ['get', '/api/notifications', 'Notifications', READ],
  ['post', '/api/notifications/{id}/read', 'Notifications', WRITE],
  ['post', '/api/notifications/read-all', 'Notifications', WRITE],
  ['get', '/api/breakouts/notifications', 'Notifications', READ],
  ['get', '/api/journal/entries', 'Journal', READ],
  ['post', '/api/journal/entries', 'Journal', WRITE],
  ['get', '/api/journal/entries/{id}', 'Journal', READ],
  ['patch', '/api/journal/entries/{id}', 'Journal', WRITE],
  ['delete', '/api/journal/entries/{id}', 'Journal', WRITE],
  ['get', '/api/journal/summary', 'Journal', READ],
  ['get', '/api/exports', 'Exports', READ],
  ['post', '/api/exports', 'Exports', WRITE],
  ['get', '/api/exports/{id}', 'Exports', READ],
  ['get', '/api/exports/{id}/download', 'Exports', READ],
  ['get', '/api/community/feed', 'Community', null],
  ['post', '/api/community/feed', 'Community', WRITE],
  ['get', '/api/community/feed/{id}', 'Community', null],
  ['patch', '/api/community/feed/{id}', 'Community', WRITE],
  ['delete', '/api/community/feed/{id}', 'Community', WRITE],
  ['post', '/api/community/feed/{id}/report', 'Community', WRITE],
  ['get', '/api/community/moderation', 'Community', READ],
  ['post', '/api/community/feed/{id}/moderation', 'Community', WRITE],
];

/** Whether a schema (after $ref) or any schema inside it carries examples. */
function hasExamples(schema: Schema | undefined, depth = 0): boolean {
  if (!schema || depth > 4) return false;
  if (schema.$ref) return hasExamples(doc.components.schemas?.[schema.$ref.split('/').pop()!], depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return true;
  return [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []), ...(schema.anyOf ?? [])].some((s) => hasExamples(s, depth + 1));
}

describe('the account features in the OpenAPI document', () => {
  it('lists every operation with its tag, text and security scheme', () => {
    for (const [method, path, tag, security] of OPERATIONS) {
      const op = doc.paths[path]?.[method];
      if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
      expect({ path, method, tags: op.tags }).toEqual({ path, method, tags: [tag] });
      expect(op.summary!.length).toBeGreaterThan(5);
      expect(op.description!.length).toBeGreaterThan(20);
      expect({ path, method, security: op.security }).toEqual({ path, method, security: security ?? [] });
      if (security) expect(Object.keys(op.responses)).toContain('401');
      expect(Object.keys(op.responses)).toContain('429');
    }
  });

  it('documents the tier and role refusals (403) and the not-found of owned objects (404)', () => {
    for (const [method, path] of OPERATIONS) {
      const op = doc.paths[path]![method]!;
      if (path.startsWith('/api/exports') || (method !== 'get' && op.security)) expect({ path, method, has403: '403' in op.responses }).toEqual({ path, method, has403: true });
      if (path.includes('{id}')) expect({ path, method, has404: '404' in op.responses }).toEqual({ path, method, has404: true });
    }
  });

  it('gives examples of every JSON body and answer', () => {
    for (const [method, path] of OPERATIONS) {
      const op = doc.paths[path]![method]!;
      const body = op.requestBody?.content['application/json']?.schema;
      if (body) expect({ path, method, body: hasExamples(body) }).toEqual({ path, method, body: true });
      const ok = op.responses['200'] ?? op.responses['201'] ?? op.responses['202'];
      const answer = ok?.content?.['application/json']?.schema;
      if (answer && !path.endsWith('/download')) expect({ path, method, answer: hasExamples(answer) }).toEqual({ path, method, answer: true });
    }
  });

  it('declares the Idempotency-Key header on every POST', () => {
    const posts = OPERATIONS.filter(([method]) => method === 'post');
    expect(posts.length).toBeGreaterThan(5);
    for (const [, path] of posts) {
      expect({ path, header: doc.paths[path]!.post!.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key') }).toEqual({ path, header: true });
    }
  });
});
