/**
 * @module modules/graphql/event-streams
 * GraphQL event streams counted against the instance's connection caps
 * (services `streamCaps`, stream/caps): a subscription answered as an
 * event stream on /api/graphql, and every stream opened on
 * /api/graphql/stream (an operation's own, distinct connections mode, or a
 * reserved stream opened with its token). An open event stream holds a socket
 * as one of /api/stream does, so it counts in the same caps (one budget of
 * sockets per instance): 503 `unavailable`
 * past the instance's cap, 429 `rate_limited` past the client's, with
 * Retry-After, before the stream opens. Its place is given back exactly once,
 * when the body ends, is cancelled (the client went away) or the request is
 * aborted. A request answered otherwise (JSON, 202, an error) counts nothing.
 *
 * @example
 * const release = await admitStream(services.streamCaps, key); // or the refusal
 * const response = await yoga.fetch(request, context);
 * return isEventStream(response) ? holding(request, response, release) : (release(), response);
 */
import type { StreamCaps } from '../../stream/caps';

/** Whether `response` is an event stream being sent. */
export const isEventStream = (response: Response | undefined): response is Response & { body: ReadableStream<Uint8Array> } =>
  response?.status === 200 && response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream') === true;

/** Counts one stream of client `key` in, or refuses it (`unavailable` 503, `rate_limited` 429); the release returned counts it out once, however often it is called. */
export async function admitStream(caps: StreamCaps, key: string): Promise<() => void> {
  await caps.admit(key);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    caps.release(key);
  };
}

/** An event stream answered after the fact (a subscription on /api/graphql): counted in, or its body cancelled (its operation stops) and the refusal thrown. */
export async function admitAnswered(caps: StreamCaps, key: string, request: Request, response: Response & { body: ReadableStream<Uint8Array> }): Promise<Response> {
  let release: () => void;
  try {
    release = await admitStream(caps, key);
  } catch (error) {
    void response.body.cancel().catch(() => undefined);
    throw error;
  }
  return holding(request, response, release);
}

/** `response` with `end` called once: when its body ends or is cancelled, or when `request` is aborted. */
export function holding(request: Request, response: Response & { body: ReadableStream<Uint8Array> }, end: () => void): Response {
  let ended = false;
  const once = () => {
    if (ended) return;
    ended = true;
    request.signal.removeEventListener('abort', once);
    end();
  };
  if (request.signal.aborted) once();
  else request.signal.addEventListener('abort', once, { once: true });
  return new Response(endingWith(response.body, once), response);
}

/** `body`, calling `end` when it ends, fails or is cancelled. */
function endingWith(body: ReadableStream<Uint8Array>, end: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        end();
        return controller.error(error);
      }
      if (!chunk.done) return controller.enqueue(chunk.value);
      end();
      controller.close();
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
