/**
 * @module modules/graphql/service
 * The GraphQL service behind /api/graphql and /api/graphql/stream, put
 * together from its steps: the schema (graphql/schema), the field costs and
 * the admission of each execution (graphql/admission: a price ceiling per
 * tier, each root field charged to the rate limits of its REST route's
 * class), the kept answers of documents drawn from the latest runs alone
 * (graphql/answers), the yoga server and its plugins (graphql/yoga: compiled
 * execution, graphql-sse, persisted queries, depth and alias limits, batch
 * limit, introspection switch), the two endpoints (graphql/endpoint,
 * graphql/stream-endpoint) and the stream reservations (graphql/reservations).
 * Subscriptions are answered over SSE: at /api/graphql by yoga itself
 * (`Accept: text/event-stream`), and at /api/graphql/stream by graphql-sse.
 */
import type { ApiVersion } from '../../config';
import type { Services } from '../../services';
import { Admission, fieldCosts, type ChargeRequest } from './admission';
import { Answers } from './answers';
import type { RouteTable } from './costs';
import { answerRequest } from './endpoint';
import { GRAPHQL_STREAM_PATH } from './model';
import { STREAM_TOKEN_HEADER } from './requests';
import { StreamReservations } from './reservations';
import { buildSchema } from './schema';
import { answerStream } from './stream-endpoint';
import { yogaServer, type YogaServer } from './yoga';

export function createGraphQL(services: Services, routes: RouteTable) {
  const schema = buildSchema();
  const costs = fieldCosts(routes);
  const answers = new Answers(services);
  const admission = new Admission(costs, services.config.graphql);
  const yoga = yogaServer(services, { schema, costs, answers, admission });
  const reservations = new StreamReservations(services.config.graphql.sse, (token) => release(services, yoga, token));
  return {
    schema,
    /** Stops what runs on its own (the reservations' timer): the services close. */
    close(): void {
      reservations.close();
    },
    /** Answers one request to /api/graphql (graphql/endpoint). */
    handle: (received: Request, apiVersion: ApiVersion, ip: string, charge: ChargeRequest) => answerRequest({ services, yoga, answers, admission }, received, apiVersion, ip, charge),
    /** Answers one request to /api/graphql/stream (graphql/stream-endpoint). */
    stream: (received: Request, apiVersion: ApiVersion, onStream: () => void, ip: string, charge: ChargeRequest) => answerStream({ services, yoga, reservations }, received, apiVersion, onStream, ip, charge),
  };
}

/** An expired reservation's stream opened and dropped at once: graphql-sse then forgets it and stops its operations. */
async function release(services: Services, yoga: YogaServer, token: string): Promise<void> {
  const request = new Request(`http://localhost${GRAPHQL_STREAM_PATH}`, { headers: { accept: 'text/event-stream', [STREAM_TOKEN_HEADER]: token } });
  try {
    const response = await yoga.fetch(request, { services, apiVersion: services.config.apiDefaultVersion, caller: null, principal: (need) => services.auth.authenticator.authorize(request, need), charge: () => undefined, counted: { request: true } });
    await response.body?.cancel();
  } catch (error) {
    services.log.warn('graphql-sse: an expired reservation could not be released', { error: String(error) });
  }
}
