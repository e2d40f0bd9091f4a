/**
 * @module modules/graphql — the GraphQL tag: /api/graphql (graphql-yoga, mounted as
 * @elysiajs/graphql-yoga mounts it: GET and POST handed to `yoga.fetch`, the body left
 * unparsed; mounted here directly so the request's API version and credential reach
 * the resolvers). /api/graphql/stream speaks the graphql-sse protocol (PUT
 * reserves a stream, GET or POST opens one or adds an operation, DELETE stops
 * one). An event stream (a subscription) is exempt from the idle timeout,
 * and counted against the instance's stream caps (graphql/event-streams).
 * graphql-yoga, graphql-js and the schema load once, in one stretch of the
 * main thread (about 0.15 s quiet, 2–3.5 s at load 30: bench/stall's write
 * phase): the server builds it during its warm-up (`prepareGraphQL`, before
 * it takes the port), so no request waits for it; in-process tests build it on
 * their first GraphQL request. Once built, it is closed with the services.
 */
import { Elysia } from 'elysia';
import { clientAddressOf } from '../../plugins/client-address';
import type { HeaderSet, SocketInfo } from '../../plugins/step';
import { rateLimiter, rateLimitOptions } from '../../plugins/rate-limit';
import { versioning } from '../../plugins/versioning';
import type { Services } from '../../services';
import { GRAPHQL_DOCS, GRAPHQL_PATH, GRAPHQL_RESPONSES, GRAPHQL_STREAM_DOCS, GRAPHQL_STREAM_PATH, GraphQLGetQuery, StreamDeleteQuery, StreamGetQuery } from './model';
import type { RouteTable } from './costs';
import type { createGraphQL } from './service';

type ServerLike = { timeout?(request: Request, seconds: number): void } | null;

type GraphQL = ReturnType<typeof createGraphQL>;

export type { RouteTable } from './costs';

/** Each app's GraphQL service, by the services it was built for (a test may build several apps). */
const builders = new WeakMap<Services, () => Promise<GraphQL>>();

/** Builds the GraphQL service of the app made over `services` now, if it is not built yet (the server's warm-up). */
export async function prepareGraphQL(services: Services): Promise<void> {
  await builders.get(services)?.();
}

export function graphqlModule(services: Services, routes: RouteTable) {
  let created: Promise<GraphQL> | undefined;
  const graphql = () =>
    (created ??= import('./service').then((service) => {
      const built = service.createGraphQL(services, routes);
      services.atClose(() => built.close());
      return built;
    }));
  builders.set(services, graphql);
  // A request's fields are charged to the same rate limits as the REST requests they stand for (graphql/costs).
  const limiter = rateLimiter(rateLimitOptions(services));
  type Route = { request: Request; apiVersion: Parameters<GraphQL['handle']>[1]; server: unknown; set: HeaderSet };
  const untimed = ({ request, server }: Route) => {
    if (request.headers.get('accept')?.includes('text/event-stream')) (server as ServerLike)?.timeout?.(request, 0);
  };
  const clientAddress = clientAddressOf(services.config.trustProxy);
  const ip = ({ request, server }: Route) => clientAddress(request, server as SocketInfo);
  const charge = ({ request, server, set }: Route) => (quotaClass: Parameters<typeof limiter.charge>[0], units: number) => limiter.charge(quotaClass, units, request, server as SocketInfo, set);
  const handle = async (route: Route) => {
    untimed(route);
    return (await graphql()).handle(route.request, route.apiVersion, ip(route), charge(route));
  };
  const stream = async (route: Route) => (await graphql()).stream(route.request, route.apiVersion, () => (route.server as ServerLike)?.timeout?.(route.request, 0), ip(route), charge(route));
  return new Elysia({ name: 'breakline/graphql' })
    .use(versioning(services.config.apiDefaultVersion))
    .get(GRAPHQL_PATH, handle, { query: GraphQLGetQuery, response: GRAPHQL_RESPONSES, detail: { ...GRAPHQL_DOCS.get } })
    .post(GRAPHQL_PATH, handle, { parse: 'none', response: GRAPHQL_RESPONSES, detail: { ...GRAPHQL_DOCS.post } })
    .get(GRAPHQL_STREAM_PATH, stream, { query: StreamGetQuery, detail: { ...GRAPHQL_STREAM_DOCS.get } })
    .post(GRAPHQL_STREAM_PATH, stream, { parse: 'none', detail: { ...GRAPHQL_STREAM_DOCS.post } })
    .put(GRAPHQL_STREAM_PATH, stream, { parse: 'none', detail: { ...GRAPHQL_STREAM_DOCS.put } })
    .delete(GRAPHQL_STREAM_PATH, stream, { query: StreamDeleteQuery, detail: { ...GRAPHQL_STREAM_DOCS.delete } });
}
