/**
 * @module modules/graphql/stream-endpoint
 * One request to /api/graphql/stream (the GraphQL over Server-Sent Events
 * Protocol of `graphql-sse`) answered, in both its modes: distinct
 * connections (one stream per operation) and single connection (a stream
 * reserved by PUT, operations added by POST with its token and stopped by
 * DELETE; reservations bounded in time and number by graphql/reservations).
 * What is checked of a request before yoga reads it is graphql/requests'; a
 * stream to be opened takes its place under the stream caps first
 * (graphql/event-streams); refusals are in the Error shape, an empty success
 * is text/plain.
 */
import type { ApiVersion } from '../../config';
import { AppError } from '../../errors';
import type { Services } from '../../services';
import { connectionKey } from '../../stream/visibility';
import type { ChargeRequest } from './admission';
import { admitStream, holding, isEventStream } from './event-streams';
import { checkStreamIds, checkStreamOperation, STREAM_REFUSALS, STREAM_TOKEN_HEADER, streamBody, streamRefusal, streamToken, wantsEventStream, withinBodyLimit } from './requests';
import type { StreamReservations } from './reservations';
import type { YogaServer } from './yoga';

/** What the stream endpoint answers with. */
export interface StreamEndpoint {
  services: Services;
  yoga: YogaServer;
  reservations: StreamReservations;
}

/**
 * Answers one request to /api/graphql/stream. `onStream` is called when the
 * answer is to be an event stream; `ip` is the client's (the reservation and
 * stream caps count per user when signed in, else per IP).
 */
export async function answerStream(endpoint: StreamEndpoint, received: Request, apiVersion: ApiVersion, onStream: () => void, ip: string, charge: ChargeRequest): Promise<Response> {
  const { services, yoga, reservations } = endpoint;
  const { authenticator } = services.auth;
  const caller = await authenticator.principalOf(received);
  const request = await withinBodyLimit(received);
  const key = connectionKey(caller && { userId: caller.userId }, ip);
  const body = request.method === 'POST' ? await streamBody(request) : undefined;
  const wantsStream = wantsEventStream(request);
  if (wantsStream) {
    request.headers.set('accept', 'text/event-stream');
    onStream();
  }
  const search = new URL(request.url).searchParams;
  checkStreamIds(request, search, body);
  // Only a reservation this instance holds (not expired) is a stream.
  let token = streamToken(request);
  if (request.method !== 'PUT' && token !== undefined && !reservations.has(token)) throw new AppError('not_found', STREAM_REFUSALS[404]!);
  checkStreamOperation(request, search, body);
  // PUT reserves under the caps; the token is set as the request's before graphql-sse reads it.
  if (request.method === 'PUT') {
    token = reservations.reserve(key);
    request.headers.set(STREAM_TOKEN_HEADER, token);
  }
  // Only a stream is asked for with Accept: text/event-stream (graphql-sse opens one for nothing else).
  const released = wantsStream ? await admitStream(services.streamCaps, key) : () => undefined;
  let response: Response | undefined;
  try {
    response = await yoga.fetch(request, { services, apiVersion, caller, principal: (need) => authenticator.authorize(received, need), charge, counted: { request: false } });
  } finally {
    if (request.method === 'PUT' && response?.status !== 201) reservations.closed(token!);
    if (!isEventStream(response)) released();
  }
  return streamAnswer(request, response, reservations, token, released);
}

/** yoga's answer to a stream request: an open stream held (its reservation marked open, released when it ends), an empty success as text/plain, a refusal in the Error shape. */
async function streamAnswer(request: Request, response: Response, reservations: StreamReservations, token: string | undefined, released: () => void): Promise<Response> {
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
}
