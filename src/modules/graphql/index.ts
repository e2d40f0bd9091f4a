/**
 * @module modules/graphql — the GraphQL tag: /api/graphql (graphql-yoga, mounted as
 * @elysiajs/graphql-yoga mounts it: GET and POST handed to `yoga.fetch`, the body left
 * unparsed; mounted here directly so the request's API version and credential reach
 * the resolvers). An event stream (a subscription) is exempt from the idle timeout.
 */
import { Elysia } from 'elysia';
import { versioning } from '../../plugins/versioning';
import type { Services } from '../../services';
import { GRAPHQL_DOCS, GRAPHQL_RESPONSES, GraphQLGetQuery } from './model';
import { createGraphQL, GRAPHQL_PATH } from './service';

type ServerLike = { timeout?(request: Request, seconds: number): void } | null;

export function graphqlModule(services: Services) {
  const graphql = createGraphQL(services);
  const handle = ({ request, apiVersion, server }: { request: Request; apiVersion: Parameters<typeof graphql.handle>[1]; server: unknown }) => {
    if (request.headers.get('accept')?.includes('text/event-stream')) (server as ServerLike)?.timeout?.(request, 0);
    return graphql.handle(request, apiVersion);
  };
  return new Elysia({ name: 'breakline/graphql' })
    .use(versioning(services.config.apiDefaultVersion))
    .get(GRAPHQL_PATH, handle, { query: GraphQLGetQuery, response: GRAPHQL_RESPONSES, detail: { ...GRAPHQL_DOCS.get } })
    .post(GRAPHQL_PATH, handle, { parse: 'none', response: GRAPHQL_RESPONSES, detail: { ...GRAPHQL_DOCS.post } });
}
