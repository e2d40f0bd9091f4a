/**
 * Request-body limits per route (plugins/body-limit) and how an operation
 * with a body is published: a route declares `jsonBody`; past it the body is
 * refused 413 while it streams in (whatever Content-Length says), it must be
 * UTF-8 JSON, and the document says `x-max-body-bytes` with a JSON-only
 * request body. Today's routes take no body; the first ones (API keys,
 * explanations) arrive with later issues, so a small app stands in for them.
 */
import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { Elysia, t } from 'elysia';
import { createLogger } from '../../src/log';
import { bodyLimit, headTooLarge, REQUEST_HEAD_LIMIT } from '../../src/plugins/body-limit';
import { errors } from '../../src/plugins/errors';
import { apiDocs } from '../../src/plugins/openapi';
import { requestId } from '../../src/plugins/request-id';
import { versioning } from '../../src/plugins/versioning';
import { errorBody } from '../helpers/app';
import { DocumentValidator, operations, servedDocument } from '../helpers/openapi';
import { createFuzzer } from '../fuzz/harness';

const Note = t.Object({ text: t.String({ maxLength: 40 }), stars: t.Integer({ minimum: 1, maximum: 5 }) }, { title: 'Note' });

const app = new Elysia()
  .use(requestId)
  .use(errors(createLogger('silent')))
  .use(bodyLimit)
  .use(versioning('1.0.0'))
  .use(apiDocs({ apiVersions: ['1.0.0', '1.1.0'], documentation: { info: { title: 'test', version: '1.0.0' } } }))
  .post('/api/notes', ({ body }) => ({ saved: body.text.length }), { jsonBody: { limit: 128, schema: Note }, body: Note, response: { 200: t.Object({ saved: t.Integer() }) }, detail: { summary: 'Save a note' } })
  .get('/api/notes', () => ({ saved: 0 }), { response: { 200: t.Object({ saved: t.Integer() }) } });

const post = (body: NonNullable<RequestInit['body']>, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  app.handle(new Request('http://localhost/api/notes', { method: 'POST', body, headers, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) }));

describe('request-body limits', () => {
  it('takes a body within the limit', async () => {
    const response = await post(JSON.stringify({ text: 'breakout held', stars: 4 }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ saved: 13 });
  });

  it('refuses a body over the limit 413, by its declared length, and closes the connection', async () => {
    const response = await post(JSON.stringify({ text: 'x'.repeat(200), stars: 4 }));
    expect(response.status).toBe(413);
    expect((await errorBody(response)).code).toBe('payload_too_large');
    expect(response.headers.get('connection')).toBe('close');
  });

  it('refuses a chunked body the moment it passes the limit', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) controller.close();
        else controller.enqueue(new TextEncoder().encode('          '));
      },
    });
    const response = await post(stream);
    expect(response.status).toBe(413);
    // 128 bytes are 13 chunks of 10: the reader stopped long before the thousandth.
    expect(pulled).toBeLessThan(50);
  });

  it('refuses invalid UTF-8, non-JSON and other media types 400 invalid_body', async () => {
    for (const [body, type] of [[new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json'], ['{"text":', 'application/json'], ['text=a', 'application/x-www-form-urlencoded']] as const) {
      const response = await post(body, { 'content-type': type });
      expect(response.status).toBe(400);
      expect((await errorBody(response)).code).toBe('invalid_body');
    }
  });

  it('refuses a body on a GET 413 before any work', async () => {
    const response = await app.handle(new Request('http://localhost/api/notes', { method: 'GET', headers: { 'content-length': '5' } }));
    expect(response.status).toBe(413);
  });

  it('counts a head to the byte: the URL and each field with its 4 bytes of `: ` and CRLF, 431 one byte past REQUEST_HEAD_LIMIT', () => {
    const url = 'http://localhost/api/notes';
    // The URL, then `x-pad: …` (5 + value + 4 bytes) and `x-two: 2` (5 + 1 + 4): the head exactly at the limit, then one byte more.
    const atLimit = (extra: number) => new Request(url, { headers: { 'x-pad': 'a'.repeat(REQUEST_HEAD_LIMIT - url.length - 9 - 10 + extra), 'x-two': '2' } });
    expect(headTooLarge(atLimit(0))).toBe(false);
    expect(headTooLarge(atLimit(1))).toBe(true);
    // Each request is counted on its own: a large head before does not carry over to a small one after.
    expect(headTooLarge(new Request(url))).toBe(false);
    expect(headTooLarge(new Request(`${url}?q=${'a'.repeat(REQUEST_HEAD_LIMIT)}`))).toBe(true);
    expect(headTooLarge(new Request(url))).toBe(false);
  });

  it('publishes the limit and a JSON-only request body, valid under ajv strict mode', async () => {
    const doc = await servedDocument((path) => app.handle(new Request(`http://localhost${path}`)));
    const op = operations(doc).find((o) => o.method === 'post')!;
    expect(op.raw['x-max-body-bytes']).toBe(128);
    expect(String(op.raw.description)).toContain('at most 128 bytes');
    expect(Object.keys(op.requestBody!.content)).toEqual(['application/json']);
    expect(op.requestBody!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Note' });
    expect(op.operationId).toBe('postApiNotes');
    const validator = new DocumentValidator(doc);
    expect(validator.compile(doc.components.schemas.Note!)({ text: 'a', stars: 5 })).toBe(true);
    expect(validator.compile(doc.components.schemas.Note!)({ text: 'a', stars: '5' })).toBe(false);
  });

  it('is fuzzed like every operation: bodies valid, malformed, mistyped and oversized', async () => {
    const handle = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
    const fuzzer = createFuzzer(await servedDocument(handle), handle);
    const op = fuzzer.operations.find((o) => o.method === 'post')!;
    await fc.assert(fuzzer.property(op), { seed: 12, numRuns: 300 });
    expect([...fuzzer.answered.get(op.operationId)!].sort()).toEqual([200, 400, 413]);
  });
});
