/** @module modules/graphql/model — the OpenAPI text of /api/graphql (the GraphQL schema documents itself: introspection and GraphiQL). */
import { t } from 'elysia';
import { ErrorSchema } from '../params';

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
    description: 'A GraphQL result: `data` (object or null) and `errors` (each with `message`, `path`, `extensions.code`: BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, QUERY_TOO_COSTLY, PERSISTED_QUERY_NOT_FOUND, INTERNAL_SERVER_ERROR). A request that is not GraphQL over HTTP (no query, unreadable JSON, a persisted hash that does not match its query) is 400 in the Error shape',
  },
);

const GraphQLRequest = t.Object(
  {
    query: t.Optional(t.String({ description: 'The GraphQL document (may be left out when extensions.persistedQuery names a query sent before)', examples: QUERY_EXAMPLES })),
    variables: t.Optional(t.Record(t.String(), t.Unknown())),
    operationName: t.Optional(t.String()),
    extensions: t.Optional(t.Record(t.String(), t.Unknown(), { description: '`persistedQuery: {version: 1, sha256Hash}`: automatic persisted queries' })),
  },
  { title: 'GraphQLRequest' },
);

const TEXT = [
  'One schema over every service: each REST read as a field with the same arguments and the same answer (`breakouts`, `bars`, `snapshot`, `confluence`, `universeScan`, `sectorRotation`, `forecast`, `ledger`, `monthly`, `scorecard`, `earnings`, `float`, `insider`, `optionsFlow`, `shortInterest`, `optionsAnalysis`, …), `signals` as a Relay cursor connection with filters (symbols, timeframe, pattern, band, state, asOf), `signal(id)`, and the signed-in user’s watchlists, alert rules, notifications, journal, exports and API keys.',
  'A signal’s `snapshot` and `earnings` are batched per request (DataLoader). Mutations mirror the account writes and need the pro tier or above (free is read-only: FORBIDDEN); without a credential: UNAUTHENTICATED. Execution problems come in `errors` of a 200, each with `extensions.code`.',
  'Subscriptions (`breakoutNew`, `breakoutStateChange`, and `alertDispatched` of your own rules) are served over Server-Sent Events: send the subscription with `Accept: text/event-stream`.',
  'Limits: selection depth (GRAPHQL_MAX_DEPTH), aliases (GRAPHQL_MAX_ALIASES), operations per batch (GRAPHQL_BATCH_LIMIT), cost per tier (GRAPHQL_MAX_COST_PER_TIER), introspection (GRAPHQL_INTROSPECTION). Persisted queries: send `extensions.persistedQuery.sha256Hash` with the query once, then the hash alone.',
  'Credentials: the `__session` cookie or an API key as `Authorization: Bearer bk_…`; public fields answer without one, rate-limited by IP as REST.',
].join('\n\n');

/** The answers (yoga writes them; a browser GET gets the GraphiQL page as text/html, a subscription an event stream). */
export const GRAPHQL_RESPONSES = {
  200: t.Union([GraphQLResult, t.Array(GraphQLResult, { description: 'A batch: one result per operation sent' })]),
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  429: ErrorSchema,
};

/** Public, and the caller’s when it sends a credential. */
const security: Record<string, string[]>[] = [{}, { SessionCookie: [] }, { ApiKey: [] }];

export const GRAPHQL_DOCS = {
  get: { tags: ['GraphQL'], summary: 'GraphiQL in a browser, or a GraphQL query in the query string', description: TEXT, security },
  post: { tags: ['GraphQL'], summary: 'A GraphQL query, mutation, subscription (SSE) or batch', description: TEXT, security, requestBody: { required: true, content: { 'application/json': { schema: t.Union([GraphQLRequest, t.Array(GraphQLRequest)]) } } } },
};
