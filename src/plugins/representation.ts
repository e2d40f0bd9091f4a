/**
 * @module plugins/representation
 * How a successful JSON answer goes on the wire: an `ETag` on every 200 GET
 * (a 64-bit wyhash of the body, quoted), `304 Not Modified` when
 * `If-None-Match` names it, and the body compressed by `Accept-Encoding`
 * (brotli, else gzip; bodies under 1 KiB as they are), with
 * `Vary: Accept-Encoding`. Compressed bodies are kept in `CompressedBodies`
 * (services.ts builds it), keyed by ETag and encoding, so a cached answer
 * (the breakouts of the latest run, a symbol's bars) is compressed once, not
 * per request. A large body (`ASYNC_COMPRESSED_BYTES` and up: a ledger page)
 * is compressed on the thread pool, off the event loop, once however many
 * requests ask for it meanwhile; the answer waits for it (issue 27).
 *
 * Routes that keep their JSON serialised answer `JsonResponse` (its text is
 * read as is, never re-parsed); plain objects are serialised here, and an
 * envelope page among them (`{ items, pagination }`) gets its RFC 8288
 * `Link` field here (pagination's `envelopeLinks`), so every envelope route
 * has it; a route answering a serialised page sets its own. Other
 * responses (streams, CSV, HTML, errors) pass through untouched.
 *
 * @example
 * new Elysia().use(representation(new CompressedBodies(32 * 2 ** 20))).get('/x', () => new JsonResponse('{"a":1}'));
 */
import { Elysia, StatusMap } from 'elysia';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, gzip, constants as zlib, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { inFlight } from '../in-flight';
import { Lru } from '../lru';
import { envelopeLinks, isEnvelope } from '../pagination';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A 200 JSON answer from an already serialised body; `serialized` is read back
 * by this plugin. `held`: the string is a cached answer, served again as the
 * same string (its ETag is remembered); a one-off body is hashed as it comes.
 */
export class JsonResponse extends Response {
  constructor(
    readonly serialized: string,
    readonly held = true,
  ) {
    super(serialized, { headers: { 'content-type': JSON_TYPE } });
  }
}

/** Bodies shorter than this are sent as they are (compression would not pay for its headers and CPU). */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Bodies this long and longer are compressed off the event loop. Measured
 * (Bun 1.4.5, this machine's best of 15, ledger-like JSON): brotli at quality
 * 5 takes 0.55 ms at 32 KB, 1.0 ms at 64 KB, 2.0 ms at 128 KB and 12 ms at
 * 750 KB, about twice that under load; gzip about 0.65× of it. From 64 KiB a
 * synchronous compression holds the loop a millisecond or more, where the
 * trip to the thread pool costs well under one; below it stays synchronous
 * (and a hot cached answer keeps its synchronous path).
 */
export const ASYNC_COMPRESSED_BYTES = 64 * 1024;

export type Encoding = 'br' | 'gzip';

/** ETags remembered for the most recent bodies (a cached answer is the same string on every request). */
const ETAGS_HELD = 256;

/**
 * Bodies on the wire by ETag and encoding (compressed, or a held answer's
 * own UTF-8 bytes), least recently used out past a byte budget; and the ETags
 * of recent bodies, so a cached answer (the same string object on every
 * request: JavaScriptCore keeps a string's hash with it, so the lookup does
 * not read the body) is hashed once, not per request.
 *
 * Each is kept as a Blob: a Response made of a Blob shares its bytes, where
 * one made of a string encodes it and one made of a Uint8Array copies it, on
 * every request (about 4 µs and 14 µs for 200 KB in Bun 1.4).
 */
/** Large bodies being compressed off the loop, per store and key: concurrent callers share the one compression. */
const compressing = inFlight<CompressedBodies, Blob>();

export class CompressedBodies {
  private readonly bodies: Lru<string, Blob>;
  private readonly etags = new Lru<string, string>({ maxEntries: ETAGS_HELD });
  private last = { text: '', etag: etagOf('') };
  private lastIdentity = { text: '', body: new Blob([]) };

  constructor(maxBytes: number) {
    this.bodies = new Lru({ maxEntries: Number.POSITIVE_INFINITY, maxBytes, sizeOf: (body) => body.size });
  }

  /** The strong ETag of `text` ({@link etagOf}), remembered for the last ETAGS_HELD bodies. */
  etag(text: string): string {
    if (text === this.last.text) return this.last.etag; // the body asked last (the same string object: no read of its bytes)
    let etag = this.etags.get(text);
    if (etag === undefined) {
      etag = etagOf(text);
      this.etags.set(text, etag);
    }
    this.last = { text, etag };
    return etag;
  }

  /**
   * A held body's UTF-8 bytes, the body asked last given again at once: a
   * Response over them shares the bytes, where one over the string encodes
   * and copies it per answer.
   */
  identity(etag: string, text: string): Blob {
    const last = this.lastIdentity;
    if (text === last.text) return last.body;
    const key = `identity${etag}`;
    const body = this.bodies.get(key) ?? this.keep(key, new Blob([text]));
    this.lastIdentity = { text, body };
    return body;
  }

  /**
   * `text` (whose ETag is `etag`) compressed in `encoding`: at once when held
   * or short, else a promise of it, compressed off the event loop once for
   * every caller asking meanwhile (the same bytes the synchronous path makes;
   * rejected if zlib fails, and asked again by the next caller).
   */
  get(etag: string, encoding: Encoding, text: string): Blob | Promise<Blob> {
    const key = `${encoding}${etag}`;
    const held = this.bodies.get(key);
    if (held) return held;
    if (text.length >= ASYNC_COMPRESSED_BYTES) return compressing(this, key, () => this.compressOffLoop(key, encoding, text));
    return this.keep(key, new Blob([compressSync(text, encoding)]));
  }

  private async compressOffLoop(key: string, encoding: Encoding, text: string): Promise<Blob> {
    return this.keep(key, new Blob([await compressAsync(text, encoding)]));
  }

  private keep(key: string, body: Blob): Blob {
    this.bodies.set(key, body); // a body larger than the whole budget is not kept
    return body;
  }
}

/**
 * Brotli at quality 5 (its default, 11, costs ~50× the time; 4–6 is the usual
 * choice for dynamic bodies, nginx's and APISIX's brotli filters default to
 * 6). The seeded ledger's pages (bench/stall --seeded --dump; best of 12 at
 * load 9): the 667 KB live page 16 ms to 79.7 KB, the 791 KB replay page
 * 17 ms to 78.2 KB; quality 4 takes 5–10 ms for 0.3–1 % more, 6 takes as
 * long for 1 % less. Kept at 5: a hot answer's bars and breakouts (12–67 KB,
 * compressed once per answer) are 6–8 % smaller than at 4. Gzip at 6 (5–12 ms,
 * 82 KB), zlib's default and the usual one.
 */
const brotliOptions = (bytes: number): BrotliOptions => ({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes } });
const GZIP_LEVEL = 6;

function compressSync(text: string, encoding: Encoding): Uint8Array<ArrayBuffer> {
  if (encoding === 'br') return brotliCompressSync(text, brotliOptions(text.length));
  return Bun.gzipSync(text, { level: GZIP_LEVEL });
}

const brotliAsync = promisify<Buffer, BrotliOptions, Buffer<ArrayBuffer>>(brotliCompress);
const gzipAsync = promisify<Buffer, ZlibOptions, Buffer<ArrayBuffer>>(gzip);

/**
 * Compressed on the thread pool (Bun's node:zlib with a callback: the loop's
 * longest gap was 4–5 ms during a 20 ms brotli of 750 KB). One output chunk
 * larger than the input: zlib given 16 KiB output chunks (its default) made
 * other gzip bytes than Bun.gzipSync for a 490 KB body (the same at 360 KB),
 * and a body has one representation per encoding whichever path made it.
 */
function compressAsync(text: string, encoding: Encoding): Promise<Buffer<ArrayBuffer>> {
  const bytes = Buffer.from(text);
  const chunkSize = Math.max(zlib.Z_DEFAULT_CHUNK, bytes.length + 1024);
  if (encoding === 'br') return brotliAsync(bytes, { ...brotliOptions(text.length), chunkSize }); // the synchronous path's size hint
  return gzipAsync(bytes, { level: GZIP_LEVEL, chunkSize });
}

/** The encoding to answer in: brotli, else gzip, when the client accepts it (q=0 refuses). */
export function negotiate(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  let gzip = false;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    if (refused) continue;
    if (name === 'br') return 'br';
    if (name === 'gzip' || name === '*') gzip = true;
  }
  return gzip ? 'gzip' : null;
}

/** The strong ETag of a body. */
export function etagOf(text: string): string {
  return `"${Bun.hash(text).toString(36)}"`;
}

/** Whether `If-None-Match` names `etag` (or `*`); weak comparison, as RFC 9110 §13.1.2 asks for GET. */
export function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  for (const tag of ifNoneMatch.split(',')) {
    const t = tag.trim();
    if (t === '*' || t === etag || t === `W/${etag}`) return true;
  }
  return false;
}

export type HeaderRecord = Record<string, string | number | undefined>;

/** A non-200 answer unchanged: a Response as it is, an object as JSON, anything else as text. */
function asIs(value: unknown, status: number, headers: HeaderRecord): Response {
  if (value instanceof Response) return value;
  const init = { status, headers: headers as Record<string, string> };
  if (value === undefined || value === null) return new Response(null, init);
  if (typeof value === 'object' && !(value instanceof Uint8Array)) {
    headers['content-type'] ??= JSON_TYPE;
    return new Response(JSON.stringify(value), init);
  }
  return new Response(value as string | Uint8Array<ArrayBuffer>, init);
}

/** What {@link represent} answers when `If-None-Match` names the ETag. */
export const NOT_MODIFIED = 304;

/**
 * A 200 JSON answer to a GET on the wire: sets its ETag, type and `Vary` in
 * `headers`, and says what to send: 304 when `If-None-Match` names the ETag,
 * else the body, compressed (`Content-Encoding` set) when it is large enough
 * and the client accepts an encoding. `held`: the text is a cached answer,
 * sent as its held bytes too when not compressed (the text itself otherwise).
 * A promise of the body while a large one is compressed off the loop.
 */
export function represent(request: Request, text: string, etag: string, headers: HeaderRecord, compressed: CompressedBodies, held = false): typeof NOT_MODIFIED | string | Blob | Promise<Blob> {
  headers.etag = etag;
  headers['content-type'] = JSON_TYPE;
  const vary = headers.vary;
  headers.vary = vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
  if (matches(request.headers.get('if-none-match'), etag)) return NOT_MODIFIED;
  const encoding = text.length >= MIN_COMPRESSED_BYTES ? negotiate(request.headers.get('accept-encoding')) : null;
  if (!encoding) return held ? compressed.identity(etag, text) : text;
  headers['content-encoding'] = encoding;
  const body = compressed.get(etag, encoding, text);
  if (!(body instanceof Promise)) return body;
  // Should zlib fail on the thread pool, the body goes as it is (an answer either way, never an error).
  return body.catch(() => {
    delete headers['content-encoding'];
    return held ? compressed.identity(etag, text) : new Blob([text]);
  });
}

export function representation(compressed: CompressedBodies) {
  return new Elysia({ name: 'breakline/representation' }).mapResponse({ as: 'global' }, ({ request, responseValue, set }) => {
    const status = typeof set.status === 'number' ? set.status : set.status ? StatusMap[set.status] : 200;
    // Any other status is answered as it is, but as a Response: in Elysia's error path (1.4) a mapResponse
    // hook that returns nothing empties the body.
    if (status !== 200) return asIs(responseValue, status, set.headers as HeaderRecord);
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    let text: string;
    if (responseValue instanceof JsonResponse) text = responseValue.serialized;
    else if (responseValue instanceof Response || responseValue === null || typeof responseValue !== 'object' || responseValue instanceof Uint8Array) return;
    else {
      text = JSON.stringify(responseValue);
      const link = isEnvelope(responseValue) ? envelopeLinks(request.url, responseValue.pagination) : undefined;
      if (link) (set.headers as HeaderRecord).link = link;
    }

    const etag = responseValue instanceof JsonResponse && responseValue.held ? compressed.etag(text) : etagOf(text);
    const answer = represent(request, text, etag, set.headers as HeaderRecord, compressed);
    if (answer === NOT_MODIFIED) return new Response(null, { status: 304, headers: set.headers as Record<string, string> });
    // Text as it is: Elysia makes the one Response of it with the headers set here (a Response returned
    // from this hook would be copied once more to merge them). Elysia maps whatever this hook returns as
    // it maps a handler's answer; its types only name Response.
    if (typeof answer === 'string') return answer as unknown as Response;
    const headers = set.headers as Record<string, string>;
    // A promise while a large body is compressed off the loop (it never rejects: represent falls back to the
    // body as it is): Elysia answers with what it resolves to (1.4's mapResponse of a Promise).
    if (answer instanceof Promise) return answer.then((body) => new Response(body, { headers })) as unknown as Response;
    return new Response(answer, { headers });
  });
}
