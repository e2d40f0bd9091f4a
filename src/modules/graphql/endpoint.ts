/**
 * @module modules/graphql/endpoint
 * One request to /api/graphql (GraphiQL, a query, a batch, or a subscription
 * stream) answered: a kept answer (graphql/answers) when there is one, else
 * yoga's; a subscription's event stream under the stream caps
 * (graphql/event-streams); a GraphQL request error as GraphQL over HTTP has
 * it (graphql/requests); a request that is not GraphQL over HTTP in the
 * Error shape of every other route.
 */
import type { ApiVersion } from '../../config';
import { AppError } from '../../errors';
import type { Services } from '../../services';
import { connectionKey } from '../../stream/visibility';
import type { Admission, ChargeRequest } from './admission';
import type { Answers } from './answers';
import { admitAnswered, isEventStream } from './event-streams';
import { graphqlRequestError, withinBodyLimit } from './requests';
import type { YogaServer } from './yoga';

/** What the endpoint answers with. */
export interface Endpoint {
  services: Services;
  yoga: YogaServer;
  answers: Answers;
  admission: Admission;
}

/** Answers one request to /api/graphql; `ip` is the client's (a stream is capped per user when signed in, else per IP). */
export async function answerRequest({ services, yoga, answers, admission }: Endpoint, received: Request, apiVersion: ApiVersion, ip: string, charge: ChargeRequest): Promise<Response> {
  const { authenticator } = services.auth;
  const caller = await authenticator.principalOf(received);
  const request = await withinBodyLimit(received);
  const answer = await answers.slotFor(request, apiVersion);
  const hit = answer && (await answers.hit(answer, services.config.graphql.maxCost[caller?.tier ?? 'free']));
  if (hit) {
    // Its fields are charged as an execution's would be (a kept answer's fields are of no quota class).
    await charge('general', hit.fields - 1);
    return hit.response;
  }
  const response = await yoga.fetch(request, { services, apiVersion, caller, principal: (need) => authenticator.authorize(received, need), answer, charge, counted: { request: false } });
  // Yoga answers a request error 200 to an `Accept: application/json` client: the admission marked it.
  const refused = admission.refused(request);
  if (isEventStream(response) && !refused) return admitAnswered(services.streamCaps, connectionKey(caller && { userId: caller.userId }, ip), request, response);
  if (response.status < 400 && !refused) return answer ? answers.keep(answer, response) : response;
  const text = await response.text();
  // A GraphQL request error (parse, validation, operation, variables, limits) is a GraphQL response with `errors` (graphql/requests).
  if (!refused && response.status < 500 && response.status !== 429) {
    const requestError = graphqlRequestError(response, text);
    if (requestError) return requestError;
  }
  throw notGraphQL(request, response, text);
}

/** A request that is not GraphQL over HTTP (no query, unreadable JSON, a refused persisted hash), or a failure before execution: the Error shape of every other route. */
function notGraphQL(request: Request, response: Response, text: string): AppError {
  let message = 'Not a GraphQL request';
  try {
    message = (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message ?? message;
  } catch {
    // a body that is not JSON keeps the general message
  }
  if (response.status >= 500) return new AppError('internal', message);
  if (response.status === 429) return new AppError('rate_limited', message, { 'retry-after': response.headers.get('retry-after') ?? '1' });
  return new AppError(request.method === 'GET' ? 'invalid_parameter' : 'invalid_body', message);
}
