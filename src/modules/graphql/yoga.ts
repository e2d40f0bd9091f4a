/**
 * @module modules/graphql/yoga
 * The yoga server over the schema, with its plugins in their order: execution
 * compiled per document by graphql-jit (a document of several operations is
 * interpreted by graphql-js: @envelop/graphql-jit keeps one compiled operation
 * per document whatever `operationName` a later request names), graphql-sse
 * at /api/graphql/stream, kept answers (graphql/answers), automatic persisted
 * queries, depth and alias limits (graphql-armor), then the admission of each
 * execution (graphql/admission). Errors a resolver did not mean are masked
 * (INTERNAL_SERVER_ERROR) and logged.
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError, Kind, type GraphQLSchema } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Services } from '../../services';
import type { Admission, ServerContext } from './admission';
import type { Answers } from './answers';
import type { FieldCosts } from './costs';
import { GRAPHQL_PATH, GRAPHQL_STREAM_PATH } from './model';
import { PersistedQueries } from './persisted-queries';
import { streamToken } from './requests';
import { createLoaders, type GraphQLContext } from './context';

/** Whether an operation came by /api/graphql/stream. */
const streamed = (context: unknown) => (context as { request?: Request }).request?.url.split('?')[0]!.endsWith(GRAPHQL_STREAM_PATH) === true;
/** A result refused before execution has no `data`: graphql-sse takes a result only with it (else it reads the result as arguments: a 400). */
const withData = <R extends object>(result: R) => (Symbol.asyncIterator in result || 'data' in result ? result : { data: null, ...result });

/** On /api/graphql/stream, an operation refused before execution (a subscription without a credential, a cost over the limit) answers `data: null` with its errors. */
const streamResults: Plugin = {
  onExecute: ({ args }) => (streamed(args.contextValue) ? { onExecuteDone: ({ result, setResult }) => setResult(withData(result)) } : undefined),
  onSubscribe: ({ args }) => (streamed(args.contextValue) ? { onSubscribeResult: ({ result, setResult }) => setResult(withData(result)) } : undefined),
};

/** What the server is made of besides the services. */
export interface YogaParts {
  schema: GraphQLSchema;
  costs: FieldCosts;
  answers: Answers;
  admission: Admission;
}

/** An error as the client sees it: a GraphQL error as it is (a refused variable's value is BAD_USER_INPUT), anything else masked and logged. */
function maskError(services: Services) {
  return (error: unknown, message: string): Error => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) {
      // A variable's value its declared type refuses (graphql-js gives such request errors no code): the caller's input.
      if (error.extensions?.code === undefined && error.path === undefined) return new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, code: 'BAD_USER_INPUT' } });
      return error;
    }
    services.log.error('graphql resolver failed', { error: String(original), stack: original instanceof Error ? original.stack : undefined });
    return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } });
  };
}

/** The plugins, in their order (see the module's header). */
function plugins(services: Services, { costs, answers, admission }: YogaParts) {
  const limits = services.config.graphql;
  const caches = services.graphql;
  const persisted = new PersistedQueries(caches.persistedQueries, caches.sharedQueries);
  // A reservation's token is always the server's (a random UUID from reservations, set as the PUT's header before graphql-sse reads it).
  const graphqlSse = useGraphQLSSE({ endpoint: GRAPHQL_STREAM_PATH, authenticate: streamToken });
  const kept = answers.plugin<ServerContext>((document) => ({ cost: costs.priceOf(document), fields: Math.max(1, ...costs.of(document).map((o) => o.charge.general)) }));
  const jit = useGraphQlJit({}, { enableIf: ({ document }) => document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length === 1 });
  return [jit, graphqlSse, streamResults, kept, persisted.plugin(), maxDepthPlugin({ n: limits.maxDepth, exposeLimits: true }), maxAliasesPlugin({ n: limits.maxAliases, exposeLimits: true }), admission.plugin()];
}

export function yogaServer(services: Services, parts: YogaParts) {
  const caches = services.graphql;
  return createYoga<ServerContext, Partial<GraphQLContext>>({
    schema: parts.schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    cors: false,
    logging: false,
    batching: { limit: services.config.graphql.batchLimit },
    graphiql: { title: 'Breakline GraphQL', defaultQuery: '{ signals(first: 5) { totalCount edges { node { symbol patternType finalScore scoreBand } } } }' },
    // The whole GraphiQL (scripts, styles, workers) inlined from @graphql-yoga/render-graphiql: no CDN, it works offline. Rendered once.
    renderGraphiQL: (options) => (caches.graphiql ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options))),
    context: ({ request }) => ({ request, loaders: createLoaders(services) }),
    // yoga's parser cache over stores services.ts holds; validation is cached by yoga per parsed document.
    parserAndValidationCache: { documentCache: caches.documents, errorCache: caches.parseErrors, validationCache: true },
    maskedErrors: { maskError: maskError(services) },
    plugins: plugins(services, parts),
  });
}

export type YogaServer = ReturnType<typeof yogaServer>;
