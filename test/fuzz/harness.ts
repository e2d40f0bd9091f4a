/**
 * The fuzzer behind the fuzz suite: requests generated from an OpenAPI
 * document's declared operations (valid values from the schemas, hostile
 * values, missing and repeated parameters, bad API-Version headers, bad and
 * oversized bodies), sent through `request`, and checked for the properties
 * of test/fuzz/operations.test.ts. Any app that serves a document can be
 * fuzzed with it.
 *
 * @example
 * const fuzzer = new Fuzzer(doc, ctx.request);
 * await fc.assert(fuzzer.property(operation), { seed: 1, numRuns: 200 });
 */
import fc from 'fast-check';
import { isDecimalInteger, isDecimalNumber } from '../../src/domain/formats';
import { DocumentValidator, operations, resolve, type OpenApiDocument, type Operation, type Parameter, type Schema } from '../helpers/openapi';
import { hostileBody, hostileValue, valueOf, wireValue } from './arbitrary';

export interface Fuzzer {
  operations: Operation[];
  /** The property checked for one operation (see the suite's comment). */
  property(op: Operation): fc.IAsyncProperty<[Generated]>;
  /** Requests sent, by status. */
  statuses: Map<number, number>;
  /** Statuses each operation answered (every one validated against the document). */
  answered: Map<string, Set<number>>;
  sent(): number;
  /** Whether the operation declares `status` as a report of its own state (a probe's 503 "not ready"), not an Error. */
  isStateReport(op: Operation, status: number): boolean;
}

interface FuzzRequest {
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: { text: string; contentType: string };
}

/** How a parameter appears in a generated request. */
type Presence = { kind: 'absent' } | { kind: 'one'; value: string } | { kind: 'repeated'; values: string[] };

/** Which of the operation's security schemes a request signs in with, or none (`undefined`). */
type Generated = { presences: Presence[]; version: string | undefined; extra: boolean; body: FuzzRequest['body']; scheme: string | undefined };

/** What the client sent for a parameter, as the server reads it (lone surrogates become U+FFFD on the wire). */
const wellFormed = (value: string) => value.toWellFormed();

/** Percent-encodes UTF-8 bytes (every byte but the unreserved set). */
function percentEncode(value: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A value fetch can carry in a header (visible Latin-1, no line breaks), else a stand-in that is just as wrong. */
const headerSafe = (value: string) => (/^[\x20-\x7e\xa0-\xff]*$/.test(value) ? value : 'not/a version');

export interface FuzzerOptions {
  /**
   * The headers that sign a request in under each security scheme of the
   * document (`{ SessionCookie: { cookie: '__session=…' }, ApiKey: { authorization: 'Bearer bk_…' } }`),
   * read at each request (a suite may change them between operations). An
   * operation that declares security is fuzzed signed in under each scheme it
   * accepts, so its success paths are walked too; one that requires a
   * credential also gets requests without one, which it must refuse 401.
   */
  credentials?: Record<string, Record<string, string>>;
}


/** Whether an operation requires a credential (a `{}` requirement makes it optional). */
const requiresCredential = (op: Operation) => op.security.length > 0 && !op.security.some((r) => Object.keys(r as object).length === 0);

export function createFuzzer(doc: OpenApiDocument, handle: (path: string, init?: RequestInit) => Promise<Response>, options: FuzzerOptions = {}): Fuzzer {
  const validator = new DocumentValidator(doc);
  const API_VERSIONS = (resolve<Parameter>(doc, doc.components.parameters?.ApiVersion).schema.enum ?? []) as string[];
  let sent = 0;
  const statuses = new Map<number, number>();
  const answered = new Map<string, Set<number>>();


  /** Whether a string the server received conforms to a parameter's declared schema. */
  function conforms(schema: Schema, value: string): boolean {
    const s = resolve<Schema>(doc, schema);
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.includes('integer')) return isDecimalInteger(value) && validator.compile(s)(Number(value));
    if (types.includes('number')) return isDecimalNumber(value) && validator.compile(s)(Number(value));
    if (types.includes('boolean')) return (value === 'true' || value === 'false') && validator.compile(s)(value === 'true');
    return validator.compile(s)(value);
  }

  function presence(parameter: Parameter, clean: boolean): fc.Arbitrary<Presence> {
    // A clean request uses the documented examples mostly, like a developer trying the API.
    const valid = wireValue(parameter.schema, (s) => resolve<Schema>(doc, s), clean ? 12 : 3);
    const one = (value: fc.Arbitrary<string>) => value.map((v): Presence => ({ kind: 'one', value: wellFormed(v) }));
    const absent = fc.constant<Presence>({ kind: 'absent' });
    if (clean) return parameter.required ? one(valid) : fc.oneof({ weight: 1, arbitrary: absent }, { weight: 2, arbitrary: one(valid) });
    return fc.oneof(
      { weight: parameter.required ? 1 : 5, arbitrary: absent },
      { weight: 12, arbitrary: one(valid) },
      { weight: 3, arbitrary: one(hostileValue) },
      { weight: 1, arbitrary: fc.tuple(valid, fc.oneof(valid, hostileValue)).map(([a, b]): Presence => ({ kind: 'repeated', values: [wellFormed(a), wellFormed(b)] })) },
    );
  }

  /**
   * A third of the requests are clean (every value as declared), so the
   * success paths are walked too; the rest mix in hostile values, repeated and
   * missing parameters, bad versions and bad bodies.
   */
  function requestOf(op: Operation): fc.Arbitrary<Generated> {
    const declared = op.parameters.filter((p) => !(p.in === 'header' && p.name === 'API-Version'));
    const json = op.requestBody?.content['application/json']?.schema;
    const validBody = json ? valueOf(json, (s) => resolve<Schema>(doc, s)).map((v) => ({ text: JSON.stringify(v), contentType: 'application/json' })) : undefined;
    const credentials = options.credentials ?? {};
    const schemes = op.security.flatMap((requirement) => Object.keys(requirement as object)).filter((name) => credentials[name]);
    const signedIn = schemes.length > 0 ? fc.constantFrom(...schemes) : fc.constant(undefined);
    const anonymous = fc.constant(undefined);
    const build = (clean: boolean): fc.Arbitrary<Generated> =>
      fc.record({
        scheme: op.security.length === 0 ? anonymous : clean ? signedIn : fc.oneof({ weight: 6, arbitrary: signedIn }, { weight: 1, arbitrary: anonymous }),
        presences: fc.tuple(...declared.map((p) => presence(p, clean))),
        version: clean
          ? fc.option(fc.constantFrom(...API_VERSIONS), { nil: undefined })
          : fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: fc.constantFrom(...API_VERSIONS) }, { weight: 1, arbitrary: hostileValue.map(headerSafe) }),
        extra: fc.boolean(),
        body: !validBody ? fc.constant(undefined) : clean ? validBody : fc.oneof({ weight: 3, arbitrary: validBody }, { weight: 2, arbitrary: hostileBody }),
      });
    return fc.oneof({ weight: 1, arbitrary: build(true) }, { weight: 2, arbitrary: build(false) });
  }

  function build(op: Operation, { presences, version, extra, body, scheme }: Generated): FuzzRequest {
    const declared = op.parameters.filter((p) => !(p.in === 'header' && p.name === 'API-Version'));
    let path = op.path;
    const query: [string, string][] = [];
    const headers: Record<string, string> = {};
    declared.forEach((parameter, i) => {
      const p = presences[i]!;
      const values = p.kind === 'absent' ? [] : p.kind === 'one' ? [p.value] : p.values;
      if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, percentEncode(values[0] ?? ''));
      else if (parameter.in === 'query') for (const v of values) query.push([parameter.name, v]);
      else if (parameter.in === 'header' && values[0] !== undefined) headers[parameter.name] = headerSafe(values[0]);
    });
    if (version !== undefined) headers['API-Version'] = version;
    if (scheme !== undefined) Object.assign(headers, options.credentials?.[scheme]);
    if (extra) query.push(['utm_source', 'fuzz']);
    return { path, query, headers, body };
  }

  /** The first way `request` violates what `op` declares, or null (then no particular status is owed). */
  function violation(op: Operation, request: FuzzRequest, presences: Presence[]): string | null {
    const declared = op.parameters.filter((p) => !(p.in === 'header' && p.name === 'API-Version'));
    const version = request.headers['API-Version'];
    if (version !== undefined && !API_VERSIONS.includes(version.trim())) return `API-Version '${version}'`;
    const effective = version?.trim() || API_VERSIONS[0]!;
    for (const [i, parameter] of declared.entries()) {
      const p = presences[i]!;
      const requiredFrom = (op.raw.parameters as Schema[]).find((r) => r.name === parameter.name)?.['x-required-from-api-version'];
      const required = parameter.required || (typeof requiredFrom === 'string' && effective >= requiredFrom);
      if (p.kind === 'absent') {
        // Without its path segment the request names another route (404).
        if (parameter.in === 'path') return null;
        if (required) return `${parameter.name} is missing`;
        continue;
      }
      // A repeated scalar has no declared meaning; an empty or dot path segment is another route.
      if (p.kind === 'repeated') continue;
      if (parameter.in === 'path' && ['', '.', '..'].includes(p.value)) return null;
      // A header's value is what HTTP delivers: without the optional whitespace around it (RFC 9110 §5.5; fetch's Headers strip it too).
      const value = parameter.in === 'header' ? p.value.replace(/^[ \t]+|[ \t]+$/g, '') : p.value;
      if (!conforms(parameter.schema, value)) return `${parameter.name}=${JSON.stringify(p.value.slice(0, 60))} does not conform`;
    }
    return null;
  }

  function curl(op: Operation, request: FuzzRequest): string {
    const qs = request.query.map(([k, v]) => `${k}=${percentEncode(v)}`).join('&');
    const url = `http://localhost:3000${request.path}${qs ? `?${qs}` : ''}`;
    const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    const parts = ['curl -sS -i', `-X ${op.method.toUpperCase()}`, quote(url), ...Object.entries(request.headers).map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`)];
    if (request.body) parts.push(`-H ${quote(`Content-Type: ${request.body.contentType}`)}`, `--data-binary ${quote(request.body.text.length > 2000 ? `<${request.body.text.length} bytes>` : request.body.text)}`);
    return parts.join(' ');
  }

  async function send(op: Operation, request: FuzzRequest): Promise<{ status: number; contentType: string | null; text: string; headers: Headers }> {
    const qs = request.query.map(([k, v]) => `${k}=${percentEncode(v)}`).join('&');
    const headers = new Headers(request.headers);
    if (request.body) headers.set('content-type', request.body.contentType);
    const response = await handle(`${request.path}${qs ? `?${qs}` : ''}`, { method: op.method.toUpperCase(), headers, body: request.body?.text });
    sent++;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    answered.set(op.operationId, (answered.get(op.operationId) ?? new Set()).add(response.status));
    const contentType = response.headers.get('content-type');
    return { status: response.status, contentType, text: contentType?.startsWith('text/event-stream') ? await opening(response) : await response.text(), headers: response.headers };
  }

  /** The first chunk of an event stream (it stays open: reading to its end would never return), then the stream closed. */
  async function opening(response: Response): Promise<string> {
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    return new TextDecoder().decode(value);
  }

  async function check(op: Operation, generated: Generated): Promise<void> {
    const { presences, scheme } = generated;
    const request = build(op, generated);
    const reply = await send(op, request);
    const fail = (why: string) => {
      throw new Error(`${op.method.toUpperCase()} ${op.path}: ${why}\n  reproduce: ${curl(op, request)}\n  answered ${reply.status}: ${reply.text.slice(0, 300)}`);
    };
    // A 5xx is a failure, unless the operation declares that status as a state report of its own (a readiness
    // probe's 503 "starting", the health check's 503 "degraded"): not an error, and its body is validated below.
    if (reply.status >= 500 && !isStateReport(op, reply.status)) fail(`status ${reply.status}`);
    if (!reply.headers.get('x-request-id')) fail('no X-Request-Id');
    const json = (reply.contentType ?? '').startsWith('application/json');
    let parsed: unknown = reply.text;
    if (json) {
      try {
        parsed = JSON.parse(reply.text);
      } catch {
        fail('a JSON content type with a body that is not JSON');
      }
    } else if (reply.status >= 400) fail(`an error that is not JSON (${reply.contentType})`);
    // An empty or dot path segment names another route (`/api/watchlists/` is the list): its answer is not this operation's.
    if (namesAnotherRoute(op, presences)) return;
    const invalid = validator.validateResponse(op, reply.status, reply.contentType, parsed);
    if (invalid) fail(`the body does not match the declared ${reply.status} response: ${invalid}`);
    // Signed in with a valid credential, a secured operation may still refuse (403: another user's object, a higher tier).
    const secured = op.security.length > 0 && reply.status === 403;
    // What the request owes: 400 for a parameter or body that misses its declaration, 413 for a body over the limit (either, when both).
    const owed = new Map<number, string>();
    const declaredLimit = op.raw['x-max-body-bytes'];
    const oversized = request.body && typeof declaredLimit === 'number' && new TextEncoder().encode(request.body.text).byteLength > declaredLimit;
    if (oversized) owed.set(413, `a body over the declared ${declaredLimit} bytes`);
    const violated = violation(op, request, presences) ?? (oversized ? null : bodyViolation(op, request));
    if (violated) owed.set(400, violated);
    // An operation that requires a credential checks it before the input: without one the answer is 401 (or what
    // the envelope owes first: a bad API-Version, a body over the limit).
    // A body is read (and checked against its schema by the strict JSON reader) at parse time, which Elysia runs
    // before the route's access check (plugins/auth says so): a bad body may be refused 400 first.
    if (requiresCredential(op) && scheme === undefined) {
      const unreadable = bodyViolation(op, request) !== null;
      const envelope = oversized || unreadable || (request.headers['API-Version'] !== undefined && !API_VERSIONS.includes(request.headers['API-Version'].trim()));
      const envelopeStatus = owed.has(reply.status) || (unreadable && reply.status === 400);
      if (reply.status !== 401 && !(envelope && envelopeStatus)) fail('no credential, yet the answer is not 401');
      return;
    }
    if (owed.size > 0 && !owed.has(reply.status) && !secured) fail(`${[...owed.values()].join('; ')}, yet the answer is not ${[...owed.keys()].join(' or ')}`);
  }

  /** Whether a path parameter is absent, empty or a dot segment: then the request names another route (or none). */
  function namesAnotherRoute(op: Operation, presences: Presence[]): boolean {
    const declared = op.parameters.filter((p) => !(p.in === 'header' && p.name === 'API-Version'));
    return declared.some((parameter, i) => {
      if (parameter.in !== 'path') return false;
      const p = presences[i]!;
      const value = p.kind === 'absent' ? '' : p.kind === 'one' ? p.value : p.values[0]!;
      return ['', '.', '..'].includes(value);
    });
  }

  /** Whether `status` is declared by `op` with a body of its own (not the Error shape). */
  function isStateReport(op: Operation, status: number): boolean {
    const declared = op.responses[String(status)];
    return declared !== undefined && Object.keys(declared).length > 0 && !JSON.stringify(declared).includes('#/components/schemas/Error');
  }

  /** How a request's body misses what the operation declares (JSON of its schema), or null. */
  function bodyViolation(op: Operation, request: FuzzRequest): string | null {
    const schema = op.requestBody?.content['application/json']?.schema;
    if (!schema) return null;
    if (!request.body) return op.requestBody?.required ? 'the body is missing' : null;
    if (!/^application\/json/.test(request.body.contentType)) return `a ${request.body.contentType} body`;
    let value: unknown;
    try {
      value = JSON.parse(request.body.text);
    } catch {
      return 'a body that is not JSON';
    }
    return validator.compile(schema)(value) ? null : 'a body that does not match its schema';
  }

  return {
    operations: operations(doc),
    property: (op) => fc.asyncProperty(requestOf(op), (generated) => check(op, generated)),
    statuses,
    answered,
    sent: () => sent,
    isStateReport,
  };
}
