/**
 * @module modules/graphql/service
 * The yoga server behind /api/graphql: the schema (graphql/schema), the
 * request's context (services, API version, the caller from the one
 * Authenticator, DataLoaders), and the protections: depth and alias limits
 * (graphql-armor), field costs (graphql/costs: a price ceiling per tier, and
 * each root field charged to the rate limits of its REST route's class, both
 * before execution), batch limit, introspection switch,
 * and automatic persisted queries (a client may send only the sha256 of a
 * query it sent once). Subscriptions are answered over SSE: at /api/graphql by
 * yoga itself (`Accept: text/event-stream`), and at /api/graphql/stream by
 * the GraphQL over Server-Sent Events Protocol of the `graphql-sse` package
 * (@graphql-yoga/plugin-graphql-sse), in both its modes: distinct connections
 * (one stream per operation) and single connection (a stream reserved by PUT,
 * operations added by POST with its token and stopped by DELETE; reservations
 * bounded in time and number by graphql/reservations; what is checked of a
 * request before yoga reads it is graphql/requests'). Answers of
 * documents drawn from the latest runs alone are kept per run (graphql/answers).
 * Execution is compiled per document by graphql-jit (bench/graphql: a page of
 * 50 signals executes several times faster than graphql-js interprets it); a
 * document of several operations is interpreted by graphql-js, as
 * @envelop/graphql-jit keeps one compiled operation per document (the first
 * one asked for) whatever `operationName` a later request names.
 */
import { createHash } from 'node:crypto';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import {
  getOperationAST,
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  type DocumentNode,
} from 'graphql';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Principal } from '../../auth';
import type { ApiVersion } from '../../config';
import type { Tier } from '../../domain/tiers';
import { AppError } from '../../errors';
import type { Lru } from '../../lru';
import { classFromDetail, QUOTA_CLASSES, quotaClassOf, type CostlyWhen, type QuotaClassName } from '../../plugins/rate-limit';
import type { Services } from '../../services';
import { connectionKey } from '../../stream/visibility';
import { Answers, type AnswerSlot } from './answers';
import { FieldCosts, type OperationCost, type RouteTable } from './costs';
import { admitAnswered, admitStream, holding, isEventStream } from './event-streams';
import { GRAPHQL_PATH, GRAPHQL_STREAM_PATH } from './model';
import { checkStreamIds, graphqlRequestError, STREAM_REFUSALS, STREAM_TOKEN_HEADER, streamBody, streamRefusal, streamToken, withinBodyLimit } from './requests';
import { StreamReservations } from './reservations';
import { buildSchema, createLoaders, fieldRoute, type GraphQLContext } from './schema';

/** The cost error of a document whose costliest operation is over `limit`, or undefined. */
function costError(operations: OperationCost[], limit: number, tier: Tier | 'anonymous'): GraphQLError | undefined {
  const over = operations.find((o) => o.price > limit);
  if (!over) return undefined;
  return new GraphQLError(`Query cost ${over.price} exceeds the limit of ${limit} for ${tier === 'anonymous' ? 'anonymous callers' : `the ${tier} tier`}`, { nodes: [over.node], extensions: { code: 'QUERY_TOO_COSTLY', cost: over.price, limit } });
}

/** A refusal of the rate limiter as a GraphQL error: RATE_LIMITED, answered 429 with Retry-After (a batch: in its result). */
function rateLimited(error: AppError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: 'RATE_LIMITED', http: { status: error.status, headers: error.headers } } });
}

/** Where persisted queries are shared between instances (redis/query-store, with REDIS_URL). */
export interface SharedQueries {
  get(hash: string): Promise<string | undefined>;
  put(hash: string, query: string): Promise<void>;
}

/**
 * Automatic persisted queries: queries by their sha256 (a bounded store
 * services.ts builds), filled by clients that send both; with `shared`, one
 * registered on any instance is found on the others.
 */
export class PersistedQueries {
  constructor(
    private readonly queries: Lru<string, string>,
    private readonly shared?: SharedQueries,
  ) {}

  plugin(): Plugin {
    return {
      onParams: async ({ params, setParams }) => {
        const persisted = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery;
        const hash = persisted?.sha256Hash;
        if (typeof hash !== 'string') return;
        if (typeof params.query === 'string') {
          if (createHash('sha256').update(params.query).digest('hex') !== hash) {
            throw new GraphQLError('The persisted query hash is not the sha256 of the query sent', { extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH', http: { status: 400 } } });
          }
          if (!this.queries.has(hash)) {
            this.queries.set(hash, params.query);
            await this.shared?.put(hash, params.query);
          }
          return;
        }
        let query = this.queries.get(hash);
        if (query === undefined && this.shared) {
          query = await this.shared.get(hash);
          if (query !== undefined) this.queries.set(hash, query);
        }
        // Apollo's message: clients retry with the query on it.
        if (query === undefined) throw new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 200 } } });
        setParams({ ...params, query });
      },
    };
  }
}

/** Whether an operation came by /api/graphql/stream. */
const streamed = (context: unknown) => (context as { request?: Request }).request?.url.split('?')[0]!.endsWith(GRAPHQL_STREAM_PATH) === true;
/** A result refused before execution has no `data`: graphql-sse takes a result only with it (else it reads the result as arguments: a 400). */
const withData = <R extends object>(result: R) => (Symbol.asyncIterator in result || 'data' in result ? result : { data: null, ...result });

/** On /api/graphql/stream, an operation refused before execution (a subscription without a credential, a cost over the limit) answers `data: null` with its errors. */
const streamResults: Plugin = {
  onExecute: ({ args }) => (streamed(args.contextValue) ? { onExecuteDone: ({ result, setResult }) => setResult(withData(result)) } : undefined),
  onSubscribe: ({ args }) => (streamed(args.contextValue) ? { onSubscribeResult: ({ result, setResult }) => setResult(withData(result)) } : undefined),
};

/** Counts units of a quota for the request (the route's rate limiter); throws its 429 AppError past the quota. */
export type ChargeRequest = (quotaClass: 'general' | QuotaClassName, units: number) => void | Promise<void>;

/** The per-request part of the context, handed to yoga by the route. */
export interface ServerContext {
  services: Services;
  apiVersion: ApiVersion;
  caller: Principal | null;
  principal: GraphQLContext['principal'];
  /** Where the answer is kept, for a request one may be kept for (graphql/answers). */
  answer?: AnswerSlot;
  charge: ChargeRequest;
  /** Shared by a request's operations: whether the ordinary unit the request already counted (plugins/rate-limit, before routing) has stood for a field. */
  counted: { request: boolean };
}

export function createGraphQL(services: Services, routes: RouteTable) {
  const { config, log } = services;
  const limits = config.graphql;
  const schema = buildSchema();
  // Each root field's class is its REST route's, as the route table publishes it (read once, on the first GraphQL request).
  let routeClasses: Map<string, CostlyWhen> | undefined;
  const routeClass = (route: string) => (routeClasses ??= new Map(routes().map((r) => [`${r.method} ${r.path}`, classFromDetail(r.hooks?.detail as Record<string, unknown> | undefined)]))).get(route) ?? false;
  const costs = new FieldCosts((field, args) => {
    const route = fieldRoute(field);
    return route === undefined ? undefined : quotaClassOf(routeClass(route), args);
  });
  const caches = services.graphql;
  const persisted = new PersistedQueries(caches.persistedQueries, caches.sharedQueries);
  const answers = new Answers(services);
  /** Requests yoga refused before execution (not GraphQL over HTTP); the key goes with the request. */
  const badRequests = new WeakSet<Request>();
  const guard: Plugin<ServerContext> = {
    onResultProcess({ request, result }) {
      // A batch with one such entry is refused whole: its body is not a list of GraphQL requests.
      const refused = (one: unknown) => !('data' in (one as object)) && ((one as { errors?: readonly GraphQLError[] }).errors ?? []).some((e) => e.extensions?.code === 'BAD_REQUEST');
      if (Array.isArray(result) ? result.some(refused) : refused(result)) badRequests.add(request);
    },
    // The same for every caller, so yoga may cache the validation.
    onValidate({ addValidationRule }) {
      if (!limits.introspection) addValidationRule(NoSchemaIntrospectionCustomRule);
    },
    // Per caller (the tier's ceiling, the caller's quotas): checked before each execution, never cached.
    onExecute: ({ args, setResultAndStopExecution }) => admit(args, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => admit(args, setResultAndStopExecution),
  };
  /**
   * An operation's price against the caller's ceiling (QUERY_TOO_COSTLY), then
   * its charge against the rate limits (RATE_LIMITED, 429): the ordinary
   * quota's units first (the request's own unit standing for its first
   * field), then each class's, so the headers describe the class's quota as a
   * REST answer of the class does.
   */
  async function admit(args: { document: DocumentNode; contextValue: unknown; variableValues?: Readonly<Record<string, unknown>> | null; operationName?: string | null }, refuse: (result: { errors: GraphQLError[] }) => void): Promise<void> {
    const ctx = args.contextValue as ServerContext;
    const tier = ctx.caller?.tier;
    const operations = costs.of(args.document, args.variableValues);
    const error = costError(operations, limits.maxCost[tier ?? 'free'], tier ?? 'anonymous');
    if (error) return refuse({ errors: [error] });
    const executed = getOperationAST(args.document, args.operationName ?? undefined);
    const charge = operations.find((o) => o.node === executed)?.charge;
    if (!charge) return;
    const general = charge.general - (ctx.counted.request ? 0 : 1);
    ctx.counted.request = true;
    try {
      await ctx.charge('general', general);
      for (const quotaClass of QUOTA_CLASSES) await ctx.charge(quotaClass, charge[quotaClass]);
    } catch (thrown) {
      if (thrown instanceof AppError && thrown.code === 'rate_limited') return refuse({ errors: [rateLimited(thrown)] });
      throw thrown;
    }
  }
  // A reservation's token is always the server's (a random UUID from reservations, set as the PUT's header before graphql-sse reads it).
  const graphqlSse = useGraphQLSSE({ endpoint: GRAPHQL_STREAM_PATH, authenticate: streamToken });
  const yoga = createYoga<ServerContext, Partial<GraphQLContext>>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    cors: false,
    logging: false,
    batching: { limit: limits.batchLimit },
    graphiql: { title: 'Breakline GraphQL', defaultQuery: '{ signals(first: 5) { totalCount edges { node { symbol patternType finalScore scoreBand } } } }' },
    // The whole GraphiQL (scripts, styles, workers) inlined from @graphql-yoga/render-graphiql: no CDN, it works offline. Rendered once.
    renderGraphiQL: (options) => (caches.graphiql ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options))),
    context: ({ request }) => ({ request, loaders: createLoaders(services) }),
    // yoga's parser cache over stores services.ts holds; validation is cached by yoga per parsed document.
    parserAndValidationCache: { documentCache: caches.documents, errorCache: caches.parseErrors, validationCache: true },
    maskedErrors: {
      maskError(error, message) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) {
          // A variable's value its declared type refuses (graphql-js gives such request errors no code): the caller's input.
          if (error.extensions?.code === undefined && error.path === undefined) return new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, code: 'BAD_USER_INPUT' } });
          return error;
        }
        log.error('graphql resolver failed', { error: String(original), stack: original instanceof Error ? original.stack : undefined });
        return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } });
      },
    },
    plugins: [useGraphQlJit({}, { enableIf: ({ document }) => document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length === 1 }), graphqlSse, streamResults, answers.plugin<ServerContext>((document) => ({ cost: costs.priceOf(document), fields: Math.max(1, ...costs.of(document).map((o) => o.charge.general)) })), persisted.plugin(), maxDepthPlugin({ n: limits.maxDepth, exposeLimits: true }), maxAliasesPlugin({ n: limits.maxAliases, exposeLimits: true }), guard],
  });
  /** An expired reservation's stream opened and dropped at once: graphql-sse then forgets it and stops its operations. */
  const release = async (token: string) => {
    const request = new Request(`http://localhost${GRAPHQL_STREAM_PATH}`, { headers: { accept: 'text/event-stream', [STREAM_TOKEN_HEADER]: token } });
    try {
      const response = await yoga.fetch(request, { services, apiVersion: config.apiDefaultVersion, caller: null, principal: (need) => services.auth.authenticator.authorize(request, need), charge: () => undefined, counted: { request: true } });
      await response.body?.cancel();
    } catch (error) {
      log.warn('graphql-sse: an expired reservation could not be released', { error: String(error) });
    }
  };
  const reservations = new StreamReservations(limits.sse, release);
  /** Open GraphQL event streams count against the instance's stream caps (graphql/event-streams). */
  const streams = services.streamCaps;
  return {
    schema,
    /** Stops what runs on its own (the reservations' timer): the services close. */
    close(): void {
      reservations.close();
    },

    /** Answers one request to /api/graphql (GraphiQL, a query, a batch, or a subscription stream); `ip` is the client's (a stream is capped per user when signed in, else per IP). */
    async handle(received: Request, apiVersion: ApiVersion, ip: string, charge: ChargeRequest): Promise<Response> {
      const { authenticator } = services.auth;
      const caller = await authenticator.principalOf(received);
      const request = await withinBodyLimit(received);
      const answer = await answers.slotFor(request, apiVersion);
      const hit = answer && (await answers.hit(answer, limits.maxCost[caller?.tier ?? 'free']));
      if (hit) {
        // Its fields are charged as an execution's would be (a kept answer's fields are of no quota class).
        await charge('general', hit.fields - 1);
        return hit.response;
      }
      const response = await yoga.fetch(request, { services, apiVersion, caller, principal: (need) => authenticator.authorize(received, need), answer, charge, counted: { request: false } });
      // Yoga answers a request error 200 to an `Accept: application/json` client: badRequests marked it.
      if (isEventStream(response) && !badRequests.has(request)) return admitAnswered(streams, connectionKey(caller && { userId: caller.userId }, ip), request, response);
      if (response.status < 400 && !badRequests.has(request)) return answer ? answers.keep(answer, response) : response;
      const text = await response.text();
      // A GraphQL request error (parse, validation, operation, variables, limits) is a GraphQL response with `errors` (graphql/requests).
      if (!badRequests.has(request) && response.status < 500 && response.status !== 429) {
        const requestError = graphqlRequestError(response, text);
        if (requestError) return requestError;
      }
      // Not GraphQL over HTTP (no query, unreadable JSON, a refused persisted hash): the Error shape of every other route.
      let message = 'Not a GraphQL request';
      try {
        message = (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message ?? message;
      } catch {
        // a body that is not JSON keeps the general message
      }
      if (response.status >= 500) throw new AppError('internal', message);
      if (response.status === 429) throw new AppError('rate_limited', message, { 'retry-after': response.headers.get('retry-after') ?? '1' });
      throw new AppError(request.method === 'GET' ? 'invalid_parameter' : 'invalid_body', message);
    },

    /**
     * Answers one request to /api/graphql/stream (graphql-sse); its refusals in
     * the Error shape, an empty success as text/plain. `onStream` is called
     * when the answer is to be an event stream; `ip` is the client's (the
     * reservation and stream caps count per user when signed in, else per IP).
     * A stream to be opened takes its place under the stream caps first.
     */
    async stream(received: Request, apiVersion: ApiVersion, onStream: () => void, ip: string, charge: ChargeRequest): Promise<Response> {
      const { authenticator } = services.auth;
      const caller = await authenticator.principalOf(received);
      const request = await withinBodyLimit(received);
      const key = connectionKey(caller && { userId: caller.userId }, ip);
      const body = request.method === 'POST' ? await streamBody(request) : undefined;
      // graphql-sse opens a stream for `Accept: text/event-stream` exactly: a list naming it, and (without a stream token, where only a stream can be meant) no Accept or */*, are taken as that.
      const accept = request.headers.get('accept');
      const wantsStream = accept?.includes('text/event-stream') || (!streamToken(request) && (request.method === 'GET' || request.method === 'POST') && (!accept || accept.trim() === '*/*'));
      if (wantsStream) {
        request.headers.set('accept', 'text/event-stream');
        onStream();
      }
      // The yoga plugin parses and validates before graphql-sse could answer a syntax error, or an operation it cannot
      // pick, with a 400 (graphql-sse's own answer; yoga's throws reach the handler as a 500): checked here first.
      const search = new URL(request.url).searchParams;
      checkStreamIds(request, search, body);
      // Only a reservation this instance holds (not expired) is a stream.
      let token = streamToken(request);
      if (request.method !== 'PUT' && token !== undefined && !reservations.has(token)) throw new AppError('not_found', STREAM_REFUSALS[404]!);
      const query = request.method === 'GET' ? search.get('query') : (body?.query ?? null);
      const operationName = request.method === 'GET' ? search.get('operationName') : body?.operationName;
      if (query !== null) {
        const refuse = (message: string) => new AppError(request.method === 'GET' ? 'invalid_parameter' : 'invalid_body', message);
        let document: DocumentNode;
        try {
          document = parse(query);
        } catch (error) {
          throw refuse(error instanceof Error ? error.message : String(error));
        }
        const operation = getOperationAST(document, operationName ?? undefined);
        if (!operation) throw refuse(operationName == null ? 'The document must hold one operation, or operationName must name one' : `The document has no operation named '${operationName}'`);
        if (operation.operation === 'mutation' && request.method === 'GET') throw refuse('A mutation needs POST');
      }
      // PUT reserves under the caps; the token is set as the request's before graphql-sse reads it.
      if (request.method === 'PUT') {
        token = reservations.reserve(key);
        request.headers.set(STREAM_TOKEN_HEADER, token);
      }
      // Only a stream is asked for with Accept: text/event-stream (graphql-sse opens one for nothing else).
      const released = wantsStream ? await admitStream(streams, key) : () => undefined;
      let response: Response | undefined;
      try {
        response = await yoga.fetch(request, { services, apiVersion, caller, principal: (need) => authenticator.authorize(received, need), charge, counted: { request: false } });
      } finally {
        if (request.method === 'PUT' && response?.status !== 201) reservations.closed(token!);
        if (!isEventStream(response)) released();
      }
      if (isEventStream(response)) {
        if (token === undefined) return holding(request, response, released);
        // The reserved stream is open: it is no longer released, and its token names nothing once it ends.
        reservations.opened(token);
        return holding(request, response, () => {
          reservations.closed(token);
          released();
        });
      }
      if (response.status < 400) {
        if (response.headers.get('content-type')) return response;
        const headers = new Headers(response.headers);
        headers.set('content-type', 'text/plain; charset=utf-8');
        return new Response(response.body, { status: response.status, headers });
      }
      throw streamRefusal(request, response.status, await response.text());
    },
  };
}
