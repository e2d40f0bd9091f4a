/** @module modules/graphql/model — the OpenAPI text of /api/graphql (the GraphQL schema documents itself: introspection and GraphiQL). */
import { t } from 'elysia';
import { ErrorSchema } from '../shared/params';

export const GRAPHQL_PATH = '/api/graphql';
/** The GraphQL over Server-Sent Events Protocol (graphql-sse): both modes. */
export const GRAPHQL_STREAM_PATH = '/api/graphql/stream';

const QUERY_EXAMPLES = ['{ scorecard { generatedAt ledgerHead { seq hash } } }', '{ signals(first: 2) { totalCount edges { cursor node { id symbol finalScore } } } }', '{ __typename }'];

/** GET's parameters: GraphQL over HTTP's, each a string (variables and extensions as JSON text). */
export const GraphQLGetQuery = t.Object({
  query: t.Optional(t.String({ description: 'The GraphQL document (a query; mutations need POST)', examples: QUERY_EXAMPLES })),
  variables: t.Optional(t.String({ description: 'The variables as JSON text' })),
  operationName: t.Optional(t.String()),
  extensions: t.Optional(t.String({ description: 'Extensions as JSON text (persistedQuery)' })),
});

export const GraphQLResult = t.Object(
  {
    data: t.Optional(t.Union([t.Record(t.String(), t.Unknown()), t.Null()])),
    errors: t.Optional(t.Array(t.Record(t.String(), t.Unknown()))),
  },
  {
    title: 'GraphQLResult',
    description: 'A GraphQL result: `data` (object or null) and `errors` (each with `message`, `path`, `extensions.code`: BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, QUERY_TOO_COSTLY, RATE_LIMITED (an operation of a batch past a quota), PERSISTED_QUERY_NOT_FOUND, INTERNAL_SERVER_ERROR). A request that is not GraphQL over HTTP (no query, unreadable JSON, a persisted hash that does not match its query) is 400 in the Error shape',
  },
);

export const GraphQLRequest = t.Object(
  {
    query: t.Optional(t.String({ description: 'The GraphQL document (may be left out when extensions.persistedQuery names a query sent before)', examples: QUERY_EXAMPLES })),
    variables: t.Optional(t.Record(t.String(), t.Unknown())),
    operationName: t.Optional(t.String()),
    extensions: t.Optional(t.Record(t.String(), t.Unknown(), { description: '`persistedQuery: {version: 1, sha256Hash}`: automatic persisted queries' })),
  },
  { title: 'GraphQLRequest' },
);

export type StreamRequest = typeof GraphQLRequest.static;

const TEXT = [
  'One schema over every service: each REST read as a field with the same arguments and the same answer (`breakouts`, `bars`, `snapshot`, `confluence`, `universeScan`, `sectorRotation`, `forecast`, `ledger`, `monthly`, `scorecard`, `earnings`, `float`, `insider`, `optionsFlow`, `shortInterest`, `optionsAnalysis`, …), `signals` as a Relay cursor connection with filters (symbols, timeframe, pattern, band, state, asOf), `signal(id)`, and the signed-in user’s watchlists, alert rules, notifications, journal, exports and API keys.',
  'A signal’s `snapshot` and `earnings` are batched per request (DataLoader). Mutations mirror the account writes and need the pro tier or above (free is read-only: FORBIDDEN); without a credential: UNAUTHENTICATED. Execution problems come in `errors` of a 200, each with `extensions.code`.',
  'Subscriptions (`breakoutNew`, `breakoutStateChange`, and `alertDispatched` of your own rules) are served over Server-Sent Events: send the subscription with `Accept: text/event-stream`. An open event stream counts against the stream caps of the instance (SSE_MAX_CONNECTIONS: then 503) and of the client, its IP or its user when signed in (SSE_MAX_CONNECTIONS_PER_CLIENT: then 429), both with Retry-After, until it ends.',
  'Limits: selection depth (GRAPHQL_MAX_DEPTH), aliases (GRAPHQL_MAX_ALIASES), operations per batch (GRAPHQL_BATCH_LIMIT), cost per tier (GRAPHQL_MAX_COST_PER_TIER: a root field 10, one whose REST route is costly 500), introspection (GRAPHQL_INTROSPECTION). Rate limits field by field: each root field (aliases included) counts as the REST request it stands for, against the ordinary quota and, for a field of a costly route (ledgerVerification, universeScan, breakouts/signals with asOf), the costly quota; past a quota: 429 with Retry-After. Persisted queries: send `extensions.persistedQuery.sha256Hash` with the query once, then the hash alone.',
  'Credentials: the `__session` cookie or an API key as `Authorization: Bearer bk_…`; public fields answer without one, rate-limited by IP as REST.',
].join('\n\n');

/** The answers (yoga writes them; a browser GET gets the GraphiQL page as text/html, a subscription an event stream). */
export const GRAPHQL_RESPONSES = {
  200: t.Union([GraphQLResult, t.Array(GraphQLResult, { description: 'A batch: one result per operation sent' })]),
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  /** The rate limit, or this client's open event streams at SSE_MAX_CONNECTIONS_PER_CLIENT (with Retry-After). */
  429: ErrorSchema,
  /** This instance's open event streams at SSE_MAX_CONNECTIONS (with Retry-After). */
  503: ErrorSchema,
};

/** Public, and the caller’s when it sends a credential. */
const security: Record<string, string[]>[] = [{}, { SessionCookie: [] }, { ApiKey: [] }];

export const GRAPHQL_DOCS = {
  get: { tags: ['GraphQL'], summary: 'GraphiQL in a browser, or a GraphQL query in the query string', description: TEXT, security },
  post: { tags: ['GraphQL'], summary: 'A GraphQL query, mutation, subscription (SSE) or batch', description: TEXT, security, requestBody: { required: true, content: { 'application/json': { schema: t.Union([GraphQLRequest, t.Array(GraphQLRequest)]) } } } },
};

/** GET /api/graphql/stream: an operation in the query string (distinct connections), or the token of a reserved stream. */
export const StreamGetQuery = t.Object({
  query: t.Optional(t.String({ description: 'The GraphQL document (a subscription, or a query)', examples: ['subscription { breakoutNew { signal { id symbol finalScore } } }'] })),
  variables: t.Optional(t.String({ description: 'The variables as JSON text' })),
  operationName: t.Optional(t.String()),
  extensions: t.Optional(t.String({ description: 'Extensions as JSON text (single connection mode: `operationId`)' })),
  token: t.Optional(t.String({ description: 'The token of a stream reserved by PUT (instead of the X-GraphQL-Event-Stream-Token header)' })),
});

/** DELETE /api/graphql/stream: the operation to stop on a reserved stream. */
export const StreamDeleteQuery = t.Object({
  operationId: t.Optional(t.String({ description: 'The operation to stop (the id it was added with)' })),
  token: t.Optional(t.String({ description: 'The token of the stream (instead of the header)' })),
});

const STREAM_TEXT = [
  'The GraphQL over Server-Sent Events Protocol of the `graphql-sse` package (use its `createClient`), in both modes, with the schema, credentials, limits and subscriptions of /api/graphql (`breakoutNew`, `breakoutStateChange`, and `alertDispatched` of your own rules, fed by the event bus of /api/stream).',
  '**Distinct connections**: GET (query string) or POST (JSON body) an operation with `Accept: text/event-stream` (without a stream token, no Accept or `*/*` is taken as that); the answer is a stream of `next` events (each a GraphQL result) and one `complete`.',
  '**Single connection**: PUT reserves a stream and answers its token (text/plain); GET with `Accept: text/event-stream` and the token (`X-GraphQL-Event-Stream-Token` header or `?token=`) opens it; POST an operation with the token and `extensions.operationId` adds it (202; its results come on the stream as `next` events `{id, payload}`, then `complete {id}`); DELETE `?operationId=` stops it. An operation runs as the credential of the request that added it.',
  'An open event stream (either mode) counts against the stream caps of the instance (SSE_MAX_CONNECTIONS: then 503) and of the client, its IP or its user when signed in (SSE_MAX_CONNECTIONS_PER_CLIENT: then 429), both with Retry-After and before the stream opens, until it ends.',
  'A reservation lives in this instance: behind a load balancer, single connection mode needs requests of one token to reach one instance. A reservation not opened within GRAPHQL_SSE_RESERVATION_SECONDS (30 s) is released: its token then answers 404 and the operations added to it stop. An instance holds at most GRAPHQL_SSE_MAX_RESERVATIONS reservations not yet opened (then PUT answers 503), a client (its IP, or its user when signed in) at most GRAPHQL_SSE_MAX_RESERVATIONS_PER_CLIENT (then 429); both with Retry-After.',
].join('\n\n');

const TOKEN_HEADER = { name: 'X-GraphQL-Event-Stream-Token', in: 'header' as const, required: false, schema: { type: 'string' as const }, description: 'The token of a stream reserved by PUT' };
const streamError = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });
const STREAM_ERRORS = {
  400: streamError('Not a graphql-sse request: no document or a syntax error in it, a body that is not a GraphQL request as JSON, unreadable variables, an Accept the step does not take, a missing operationId'),
  404: streamError('No such stream: the token names no stream reserved by PUT (or it has closed, or it was not opened within GRAPHQL_SSE_RESERVATION_SECONDS and was released), or a DELETE names no token'),
  409: streamError('The reserved stream is open already, or the operationId is in use on it'),
  429: streamError('The rate limit'),
};
/** The refusals of a stream to be opened (GET or POST with Accept: text/event-stream). */
const OPEN_ERRORS = {
  ...STREAM_ERRORS,
  429: streamError('The rate limit, or this client (its IP, or its user when signed in) holds SSE_MAX_CONNECTIONS_PER_CLIENT open GraphQL event streams; Retry-After says when to try again'),
  503: streamError('This instance holds SSE_MAX_CONNECTIONS open GraphQL event streams; Retry-After says when to try again'),
};
const EVENT_STREAM = { 'text/event-stream': { schema: { type: 'string' as const, description: 'Server-Sent Events: `next` (a GraphQL result; `{id, payload}` on a reserved stream) and `complete`; `:` comments keep it alive' } } };
const EMPTY = { 'text/plain': { schema: { type: 'string' as const, maxLength: 0 } } };

export const GRAPHQL_STREAM_DOCS = {
  get: {
    tags: ['GraphQL'],
    summary: 'Opens a graphql-sse stream: an operation in the query string, or the stream a token reserved',
    description: STREAM_TEXT,
    security,
    parameters: [TOKEN_HEADER],
    responses: { 200: { description: 'The event stream (stays open while the operation or the reservation lives), or — without Accept: text/event-stream, on a reserved stream — the operation added (202)', content: EVENT_STREAM }, 202: { description: 'The operation was added to the reserved stream', content: EMPTY }, ...OPEN_ERRORS },
  },
  post: {
    tags: ['GraphQL'],
    summary: 'A graphql-sse operation: its own stream (Accept: text/event-stream), or added to a reserved stream (token, extensions.operationId)',
    description: STREAM_TEXT,
    security,
    parameters: [TOKEN_HEADER],
    requestBody: { required: true, content: { 'application/json': { schema: GraphQLRequest } } },
    responses: { 200: { description: 'The operation\u2019s event stream (distinct connections)', content: EVENT_STREAM }, 202: { description: 'The operation was added to the reserved stream; its results come there', content: EMPTY }, 204: { description: 'The operation was stopped before it started', content: EMPTY }, ...OPEN_ERRORS },
  },
  put: {
    tags: ['GraphQL'],
    summary: 'Reserves a graphql-sse stream (single connection mode); answers its token',
    description: STREAM_TEXT,
    security,
    responses: {
      201: { description: 'The token (a random UUID) of the reserved stream; open it (GET) within GRAPHQL_SSE_RESERVATION_SECONDS or it is released', content: { 'text/plain': { schema: { type: 'string' as const, pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } } } },
      ...STREAM_ERRORS,
      429: streamError('The rate limit, or this client (its IP, or its user when signed in) holds GRAPHQL_SSE_MAX_RESERVATIONS_PER_CLIENT reservations not yet opened; Retry-After says when to try again'),
      503: streamError('This instance holds GRAPHQL_SSE_MAX_RESERVATIONS reservations not yet opened; Retry-After says when to try again'),
    },
  },
  delete: {
    tags: ['GraphQL'],
    summary: 'Stops an operation on a reserved graphql-sse stream',
    description: STREAM_TEXT,
    security,
    parameters: [TOKEN_HEADER],
    responses: { 200: { description: 'The operation is stopped (its `complete` comes on the stream)', content: EMPTY }, ...STREAM_ERRORS },
  },
};
