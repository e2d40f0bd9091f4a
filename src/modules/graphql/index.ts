/**
 * @module modules/graphql — the GraphQL tag: /api/graphql (graphql-yoga, mounted as
 * @elysiajs/graphql-yoga mounts it: GET and POST handed to `yoga.fetch`, the body left
 * unparsed; mounted here directly so the request's API version and credential reach
 * the resolvers). /api/graphql/stream speaks the graphql-sse protocol (PUT
 * reserves a stream, GET or POST opens one or adds an operation, DELETE stops
 * one). An event stream (a subscription) is exempt from the idle timeout.
 */
import { Elysia } from 'elysia';
import { versioning } from '../../plugins/versioning';
import type { Services } from '../../services';
import { GRAPHQL_DOCS, GRAPHQL_RESPONSES, GRAPHQL_STREAM_DOCS, GraphQLGetQuery, StreamDeleteQuery, StreamGetQuery } from './model';
import { createGraphQL, GRAPHQL_PATH, GRAPHQL_STREAM_PATH } from './service';

type ServerLike = { timeout?(request: Request, seconds: number): void } | null;

export function graphqlModule(services: Services) {
  const graphql = createGraphQL(services);
  type Route = { request: Request; apiVersion: Parameters<typeof graphql.handle>[1]; server: unknown };
  const untimed = ({ request, server }: Route) => {
    if (request.headers.get('accept')?.includes('text/event-stream')) (server as ServerLike)?.timeout?.(request, 0);
  };
  const handle = (route: Route) => {
    untimed(route);
    return graphql.handle(route.request, route.apiVersion);
  };
  const stream = ({ request, apiVersion, server }: Route) => graphql.stream(request, apiVersion, () => (server as ServerLike)?.timeout?.(request, 0));
  return new Elysia({ name: 'breakline/graphql' })
    .use(versioning(services.config.apiDefaultVersion))
    .get(GRAPHQL_PATH, handle, { query: GraphQLGetQuery, response: GRAPHQL_RESPONSES, detail: { ...GRAPHQL_DOCS.get } })
    .post(GRAPHQL_PATH, handle, { parse: 'none', response: GRAPHQL_RESPONSES, detail: { ...GRAPHQL_DOCS.post } })
    .get(GRAPHQL_STREAM_PATH, stream, { query: StreamGetQuery, detail: { ...GRAPHQL_STREAM_DOCS.get } })
    .post(GRAPHQL_STREAM_PATH, stream, { parse: 'none', detail: { ...GRAPHQL_STREAM_DOCS.post } })
    .put(GRAPHQL_STREAM_PATH, stream, { parse: 'none', detail: { ...GRAPHQL_STREAM_DOCS.put } })
    .delete(GRAPHQL_STREAM_PATH, stream, { query: StreamDeleteQuery, detail: { ...GRAPHQL_STREAM_DOCS.delete } });
}
