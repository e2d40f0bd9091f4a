/**
 * @module plugins/openapi/publish
 * The one place the OpenAPI document Elysia generates from our routes becomes
 * the document we publish, exact enough for client generators and strict
 * validators:
 *
 * - schemas cleaned (plugins/openapi/schema): plain integers and numbers with
 *   their real defaults, no TypeBox `error` keyword, enums typed by their
 *   values, every titled schema a named component referenced by `$ref`;
 * - parameters: required only when they have no default; the `API-Version`
 *   header on every operation; `x-…` facts of a parameter on the parameter;
 * - responses: 400 (also for a bad `API-Version`) and 429 on every operation,
 *   a `default` Error response for any other status, and the headers every
 *   answer carries (`X-Request-Id`, `API-Version`, `X-RateLimit-*`,
 *   `Retry-After` on 429), and `Link` on every page (an answer with `pagination`);
 * - operations: operationIds without hyphens, `security: []` unless the route
 *   names a scheme, the costly rate-limit class and body limits in words;
 * - `servers` is the spec's relative server `/`.
 *
 * @example
 * const published = publishDocument(generated, { apiVersions: ['1.0.0', '1.1.0'] });
 */
import { cleanSchema, extensionsOf, SchemaComponents, type JsonSchema } from './schema';

type Operation = JsonSchema & { operationId?: string; description?: string; parameters?: unknown[]; responses?: Record<string, unknown>; requestBody?: unknown; security?: unknown };

export interface OpenApiDocument {
  openapi: string;
  info: JsonSchema & { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: JsonSchema & { schemas?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface PublishOptions {
  /** The versions the `API-Version` header accepts; the first is the default one. */
  apiVersions: readonly string[];
  /** The Error shape every error response has (plugins/errors). */
  errorSchema: unknown;
}

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** What each error status means here (plugins/errors renders them all as the Error shape). */
const STATUS_TEXT: Record<string, string> = {
  '400': 'Invalid parameter, request body or API-Version',
  '401': 'Missing or invalid credential',
  '403': 'Insufficient tier',
  '404': 'Not found (unknown symbol, signal, or not available in this deployment)',
  '406': 'Not acceptable: Accept names no representation the operation serves',
  '413': 'Request body too large (or a body on a GET)',
  '429': 'Rate limit exceeded; retry after Retry-After seconds',
  '500': 'Internal error (scan or computation failed)',
  '502': 'Upstream data could not be read',
  '503': 'A subsystem is unavailable',
};

const HEADERS = {
  'X-Request-Id': { description: 'The request id: yours when well formed (1–128 of A–Z a–z 0–9 . _ : -), else a fresh req_…', required: true, schema: { type: 'string' } },
  'API-Version': { description: 'The contract version that answered', required: true, schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per window (of the costly class on costly operations); on every answer that passed the limiter', schema: { type: 'integer', minimum: 1 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer', minimum: 1 } },
  'Retry-After': { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } },
  Link: {
    description:
      'RFC 8288 links to the neighbouring pages, each the request URL with only its position changed (a relative reference): `rel="next"` while there is a next page, `rel="prev"` on a page at an offset past 0 (where the operation takes `offset`), `rel="first"` on any page but the first; absent on a lone page. Following `next` reads the whole list once.',
    schema: { type: 'string' },
  },
} as const;

/** A reference to a shared response header, for a route's `x-responses` (the `Link` of a page not in the envelope shape). */
export const LINK_HEADER = { $ref: '#/components/headers/Link' } as const;

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name.replaceAll('-', '')}` });

function responseHeaders(status: string, paged = false): JsonSchema {
  const names: (keyof typeof HEADERS)[] = ['X-Request-Id', 'API-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
  if (status === '429') names.push('Retry-After');
  if (paged) names.push('Link');
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

/** `getApiSector-rotationV2` → `getApiSectorRotationV2`. */
export function operationIdOf(raw: string): string {
  return raw.replace(/[^A-Za-z0-9]+([A-Za-z0-9]?)/g, (_, next: string) => next.toUpperCase());
}

function publishParameter(raw: unknown): JsonSchema {
  if (!isObject(raw)) return {};
  const schema = cleanSchema(raw.schema);
  const inPath = raw.in === 'path';
  const parameter: JsonSchema = {
    name: raw.name,
    in: raw.in,
    required: inPath || (raw.required === true && schema.default === undefined),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
    ...extensionsOf(raw.schema),
  };
  return parameter;
}

/**
 * The route's responses with what its `detail['x-responses']` adds: Elysia's
 * generator writes `responses` from the route's `response` schemas alone
 * (@elysiajs/openapi 1.4 replaces `detail.responses`), so a route that also
 * serves CSV, or sends a `Link`, declares those there; content types and
 * headers are merged per status, a description replaces the generic one.
 */
function withExtras(raw: Record<string, unknown> | undefined, extras: unknown): Record<string, unknown> {
  if (!isObject(extras)) return raw ?? {};
  const merged: Record<string, unknown> = { ...raw };
  for (const [status, extra] of Object.entries(extras)) {
    if (!isObject(extra)) continue;
    const base = isObject(merged[status]) ? merged[status] : {};
    merged[status] = {
      ...base,
      ...extra,
      content: { ...(isObject(base.content) ? base.content : {}), ...(isObject(extra.content) ? extra.content : {}) },
      headers: { ...(isObject(base.headers) ? base.headers : {}), ...(isObject(extra.headers) ? extra.headers : {}) },
    };
  }
  return merged;
}

function publishResponses(raw: Record<string, unknown> | undefined, components: SchemaComponents): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(raw ?? {})) {
    if (!isObject(response)) continue;
    const content = isObject(response.content) ? response.content : {};
    const published: JsonSchema = {};
    let paged = false;
    for (const [mediaType, media] of Object.entries(content)) {
      if (!isObject(media)) continue;
      const schema = cleanSchema(media.schema);
      // A page (the envelope's, or the bars'): its answer carries the Link of its neighbours (pagination's pageLinks).
      paged ||= isObject(schema.properties) && 'pagination' in schema.properties;
      published[mediaType] = { ...media, schema: components.hoist(schema) };
    }
    const generic = typeof response.description !== 'string' || response.description.startsWith('Response for status');
    responses[status] = {
      ...response,
      description: generic ? (STATUS_TEXT[status] ?? 'Success') : response.description,
      headers: { ...responseHeaders(status, paged), ...(isObject(response.headers) ? response.headers : {}) },
      ...(Object.keys(published).length ? { content: published } : {}),
    };
  }
  for (const status of ['400', '429']) {
    responses[status] ??= { description: STATUS_TEXT[status], headers: responseHeaders(status), content: { 'application/json': { schema: ERROR_REF } } };
  }
  responses.default = { description: 'Any other error, in the Error shape', headers: responseHeaders('default'), content: { 'application/json': { schema: ERROR_REF } } };
  return responses;
}

/** The request body: JSON only (plugins/body-limit reads nothing else), its schema cleaned and named. */
function publishRequestBody(raw: unknown, components: SchemaComponents): JsonSchema | undefined {
  const schema = isObject(raw) && isObject(raw.content) && isObject(raw.content['application/json']) ? raw.content['application/json'].schema : undefined;
  if (schema === undefined) return undefined;
  return { ...(isObject(raw) ? raw : {}), required: true, content: { 'application/json': { schema: components.hoist(cleanSchema(schema)) } } };
}

/** A sentence on the operation's rate-limit class and body limit, from the facts its route declared. */
function limitsInWords(operation: Operation): string {
  const words: string[] = [];
  if (operation['x-rate-limit-class'] === 'costly') {
    const when = operation['x-rate-limit-class-when-present'];
    const equals = operation['x-rate-limit-class-when-equals'];
    const condition = typeof when !== 'string' ? '' : typeof equals === 'string' ? ` when \`${when}=${equals}\`` : ` when \`${when}\` is given`;
    words.push(
      `Rate-limit class costly${condition}: each such request also counts against the stricter costly quota of the window (RATE_LIMIT_COSTLY_QUOTA), and the X-RateLimit-* headers describe that quota.`,
    );
  }
  if (typeof operation['x-max-body-bytes'] === 'number') words.push(`Request body: JSON, at most ${operation['x-max-body-bytes']} bytes (413 beyond).`);
  return words.join(' ');
}

export function publishDocument(generated: OpenApiDocument, options: PublishOptions): OpenApiDocument {
  const components = new SchemaComponents();
  // Error first: every error response references it, whether or not a route declared one.
  components.hoist(cleanSchema(JSON.parse(JSON.stringify(options.errorSchema))));
  const rawSchemas = isObject(generated.components?.schemas) ? generated.components.schemas : {};
  for (const schema of Object.values(rawSchemas)) components.hoist(cleanSchema(schema));

  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Map<string, string>();
  for (const [path, item] of Object.entries(generated.paths)) {
    paths[path] = {};
    for (const [method, raw] of Object.entries(item)) {
      const operationId = operationIdOf(raw.operationId ?? `${method}${path}`);
      const clash = operationIds.get(operationId);
      if (clash) throw new Error(`OpenAPI: operationId '${operationId}' of ${method.toUpperCase()} ${path} is also that of ${clash}`);
      operationIds.set(operationId, `${method.toUpperCase()} ${path}`);
      const limits = limitsInWords(raw);
      const operation: Operation = {
        ...raw,
        operationId,
        ...(limits ? { description: [raw.description, limits].filter(Boolean).join(' ') } : {}),
        parameters: [...(raw.parameters ?? []).map(publishParameter), { $ref: '#/components/parameters/ApiVersion' }],
        responses: publishResponses(withExtras(raw.responses, raw['x-responses']), components),
        security: raw.security ?? [],
      };
      delete operation['x-responses'];
      const body = publishRequestBody(raw.requestBody, components);
      if (body) operation.requestBody = body;
      else delete operation.requestBody;
      paths[path]![method] = operation;
    }
  }

  const [declared] = options.apiVersions;
  return {
    ...generated,
    servers: [{ url: '/', description: 'This deployment (the spec’s relative server)' }],
    paths,
    components: {
      ...generated.components,
      schemas: components.schemas,
      parameters: {
        ApiVersion: {
          name: 'API-Version',
          in: 'header',
          required: false,
          description: `The contract to answer under: ${options.apiVersions.join(' or ')}; without it the server's configured default (${declared} unless changed). Echoed on every response; any other value is 400.`,
          schema: { type: 'string', enum: [...options.apiVersions] },
        },
      },
      headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [name.replaceAll('-', ''), header])),
    },
  };
}
