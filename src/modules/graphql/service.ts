/**
 * @module modules/graphql/service
 * The yoga server behind /api/graphql: the schema (graphql/schema), the
 * request's context (services, API version, the caller from the one
 * Authenticator, DataLoaders), and the protections: depth and alias limits
 * (graphql-armor), a cost limit per tier, batch limit, introspection switch,
 * and automatic persisted queries (a client may send only the sha256 of a
 * query it sent once). Subscriptions are answered over SSE: at /api/graphql by
 * yoga itself (`Accept: text/event-stream`), and at /api/graphql/stream by
 * the GraphQL over Server-Sent Events Protocol of the `graphql-sse` package
 * (@graphql-yoga/plugin-graphql-sse), in both its modes: distinct connections
 * (one stream per operation) and single connection (a stream reserved by PUT,
 * operations added by POST with its token and stopped by DELETE; reservations
 * bounded in time and number by graphql/reservations). Answers of
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
  type FragmentDefinitionNode,
  type DocumentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { Value } from '@sinclair/typebox/value';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Principal } from '../../auth';
import type { ApiVersion } from '../../config';
import type { Tier } from '../../domain/tiers';
import { AppError } from '../../errors';
import { SERVER_BODY_LIMIT } from '../../plugins/body-limit';
import { readJsonBody } from '../../plugins/json-body';
import type { Lru } from '../../lru';
import type { Services } from '../../services';
import { connectionKey } from '../../stream/visibility';
import { Answers, type AnswerSlot } from './answers';
import { admitAnswered, admitStream, holding, isEventStream } from './event-streams';
import { GRAPHQL_PATH, GRAPHQL_STREAM_PATH, GraphQLRequest, type StreamRequest } from './model';
import { StreamReservations } from './reservations';
import { buildSchema, createLoaders, type GraphQLContext } from './schema';

/** graphql-sse's header (or `token` query parameter) naming a reserved stream. */
const STREAM_TOKEN_HEADER = 'x-graphql-event-stream-token';

/** What a list field costs per item when it names no size (`first`/`limit`), and the most it may name. */
const DEFAULT_LIST_SIZE = 20;
const MAX_LIST_SIZE = 100;
/** A root field calls a service (a database read, a scan): it weighs more than a field of its answer. */
const ROOT_FIELD_COST = 10;

/**
 * The cost of an operation: each field 1, times the sizes of the lists around
 * it (a field's `first` or `limit` argument; a variable counts as the
 * largest size), each root field ROOT_FIELD_COST more.
 */
export function operationCost(selectionSet: SelectionSetNode, fragments: (name: string) => FragmentDefinitionNode | null | undefined, depth = 0, seen = new Set<string>()): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      const sizeArg = selection.arguments?.find((a) => a.name.value === 'first' || a.name.value === 'limit');
      const size = !sizeArg ? (selection.name.value === 'signals' ? DEFAULT_LIST_SIZE : 1) : sizeArg.value.kind === Kind.INT ? Math.min(Number(sizeArg.value.value), MAX_LIST_SIZE) : MAX_LIST_SIZE;
      const inner = selection.selectionSet ? operationCost(selection.selectionSet, fragments, depth + 1, seen) : 0;
      cost += (depth === 0 ? ROOT_FIELD_COST : 1) + Math.max(size, 1) * inner;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      cost += operationCost(selection.selectionSet, fragments, depth, seen);
    } else {
      const name = selection.name.value;
      const fragment = fragments(name);
      if (!fragment || seen.has(name)) continue;
      cost += operationCost(fragment.selectionSet, fragments, depth, new Set([...seen, name]));
    }
  }
  return cost;
}

/** The cost of each operation of a document. */
function operationCosts(document: DocumentNode): { node: OperationDefinitionNode; cost: number }[] {
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  return document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION).map((node) => ({ node, cost: operationCost(node.selectionSet, (name) => fragments.get(name)) }));
}

/** A document's cost: its costliest operation's (any over the limit refuses the document). */
export const documentCost = (document: DocumentNode): number => Math.max(0, ...operationCosts(document).map((o) => o.cost));

/** The cost error of a document over `limit`, or undefined. */
function costError(document: DocumentNode, limit: number, tier: Tier | 'anonymous'): GraphQLError | undefined {
  const over = operationCosts(document).find((o) => o.cost > limit);
  if (!over) return undefined;
  return new GraphQLError(`Query cost ${over.cost} exceeds the limit of ${limit} for ${tier === 'anonymous' ? 'anonymous callers' : `the ${tier} tier`}`, { nodes: [over.node], extensions: { code: 'QUERY_TOO_COSTLY', cost: over.cost, limit } });
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

/** The per-request part of the context, handed to yoga by the route. */
export interface ServerContext {
  services: Services;
  apiVersion: ApiVersion;
  caller: Principal | null;
  principal: GraphQLContext['principal'];
  /** Where the answer is kept, for a request one may be kept for (graphql/answers). */
  answer?: AnswerSlot;
}

export function createGraphQL(services: Services) {
  const { config, log } = services;
  const limits = config.graphql;
  const schema = buildSchema();
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
    // Per caller (the tier's limit): checked before each execution, never cached.
    onExecute({ args, setResultAndStopExecution }) {
      const tier = (args.contextValue as ServerContext).caller?.tier;
      const error = costError(args.document, limits.maxCost[tier ?? 'free'], tier ?? 'anonymous');
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const tier = (args.contextValue as ServerContext).caller?.tier;
      const error = costError(args.document, limits.maxCost[tier ?? 'free'], tier ?? 'anonymous');
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
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
        if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) return error;
        log.error('graphql resolver failed', { error: String(original), stack: original instanceof Error ? original.stack : undefined });
        return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } });
      },
    },
    plugins: [useGraphQlJit({}, { enableIf: ({ document }) => document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length === 1 }), graphqlSse, streamResults, answers.plugin<ServerContext>(documentCost), persisted.plugin(), maxDepthPlugin({ n: limits.maxDepth, exposeLimits: true }), maxAliasesPlugin({ n: limits.maxAliases, exposeLimits: true }), guard],
  });
  /** An expired reservation's stream opened and dropped at once: graphql-sse then forgets it and stops its operations. */
  const release = async (token: string) => {
    const request = new Request(`http://localhost${GRAPHQL_STREAM_PATH}`, { headers: { accept: 'text/event-stream', [STREAM_TOKEN_HEADER]: token } });
    try {
      const response = await yoga.fetch(request, { services, apiVersion: config.apiDefaultVersion, caller: null, principal: (need) => services.auth.authenticator.authorize(request, need) });
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
    async handle(request: Request, apiVersion: ApiVersion, ip: string): Promise<Response> {
      const { authenticator } = services.auth;
      const caller = await authenticator.principalOf(request);
      const answer = await answers.slotFor(request, apiVersion);
      const hit = answer && (await answers.hit(answer, limits.maxCost[caller?.tier ?? 'free']));
      if (hit) return hit;
      const response = await yoga.fetch(request, { services, apiVersion, caller, principal: (need) => authenticator.authorize(request, need), answer });
      // Yoga answers a request error 200 to an `Accept: application/json` client: badRequests marked it.
      if (isEventStream(response) && !badRequests.has(request)) return admitAnswered(streams, connectionKey(caller && { userId: caller.userId }, ip), request, response);
      if (response.status < 400 && !badRequests.has(request)) return answer ? answers.keep(answer, response) : response;
      const text = await response.text();
      // Not GraphQL over HTTP (no query, unreadable JSON, a refused persisted hash): the Error shape of every other route.
      let message = 'Not a GraphQL request';
      try {
        message = (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message ?? message;
      } catch {
        // a body that is not JSON keeps the general message
      }
      if (response.status >= 500) throw new AppError('internal', message);
      throw new AppError(request.method === 'GET' ? 'invalid_parameter' : 'invalid_body', message);
    },

    /**
     * Answers one request to /api/graphql/stream (graphql-sse); its refusals in
     * the Error shape, an empty success as text/plain. `onStream` is called
     * when the answer is to be an event stream; `ip` is the client's (the
     * reservation and stream caps count per user when signed in, else per IP).
     * A stream to be opened takes its place under the stream caps first.
     */
    async stream(request: Request, apiVersion: ApiVersion, onStream: () => void, ip: string): Promise<Response> {
      const { authenticator } = services.auth;
      const caller = await authenticator.principalOf(request);
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
        response = await yoga.fetch(request, { services, apiVersion, caller, principal: (need) => authenticator.authorize(request, need) });
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

/** The stream token a request names (header, else `?token=`); an empty one names none. */
function streamToken(request: { url: string; headers: { get(name: string): string | null | undefined } }): string | undefined {
  return request.headers.get(STREAM_TOKEN_HEADER) || new URL(request.url).searchParams.get('token') || undefined;
}

/** A POST's body, read by the one strict JSON reader (from a clone: yoga reads the request itself) and checked as a GraphQL request. */
async function streamBody(request: Request): Promise<StreamRequest> {
  const body = await readJsonBody(request.clone(), SERVER_BODY_LIMIT);
  const failure = Value.Errors(GraphQLRequest, body).First();
  if (failure) throw new AppError('invalid_body', `Body ${failure.path ? `field '${failure.path.slice(1)}'` : ''}: ${failure.message}`.replace('Body :', 'Body:'));
  return body as StreamRequest;
}

/**
 * graphql-sse keeps streams and operations in plain objects: a token or an
 * operation id named like a member of Object.prototype (`constructor`,
 * `__proto__`, …) would reach that member. A token is always a UUID this
 * server made; such an operation id is refused.
 */
function checkStreamIds(request: Request, search: URLSearchParams, body: StreamRequest | undefined): void {
  const token = streamToken(request);
  if (token !== undefined && !UUID.test(token)) throw new AppError('not_found', STREAM_REFUSALS[404]!);
  let operationId: unknown = request.method === 'DELETE' ? search.get('operationId') : body?.extensions?.operationId;
  if (request.method === 'GET') {
    try {
      operationId = (JSON.parse(search.get('extensions') ?? '{}') as { operationId?: unknown } | null)?.operationId;
    } catch {
      operationId = undefined; // unreadable extensions: graphql-sse refuses them
    }
  }
  if (operationId != null && String(operationId) in Object.prototype) throw new AppError(request.method === 'POST' ? 'invalid_body' : 'invalid_parameter', `The operation id '${String(operationId)}' is reserved`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What each graphql-sse refusal means here, when its body does not say. */
const STREAM_REFUSALS: Record<number, string> = {
  404: 'No such stream: name one reserved by PUT (X-GraphQL-Event-Stream-Token or ?token=)',
  405: 'Not a method of the graphql-sse protocol here (GET or POST an operation, PUT to reserve a stream, DELETE to stop an operation)',
  406: 'Accept must be text/event-stream to open a stream, */* or text/plain to reserve one (PUT), */* or application/json to add an operation to one',
};

/** A refusal of graphql-sse's handler as an AppError: 404 and 409 as they are, any other 4xx the request's fault (400). */
function streamRefusal(request: Request, status: number, text: string): AppError {
  let message = STREAM_REFUSALS[status] ?? 'Not a GraphQL over SSE request';
  try {
    message = (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message ?? message;
  } catch {
    // an empty or non-JSON body keeps the general message
  }
  if (status === 404) return new AppError('not_found', message);
  if (status === 409) return new AppError('conflict', message);
  if (status >= 500) return new AppError('internal', message);
  return new AppError(request.method === 'POST' ? 'invalid_body' : 'invalid_parameter', message);
}
