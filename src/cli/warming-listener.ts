/**
 * @module cli/warming-listener — what answers on the port while the server
 * warms up, before the app exists: `/livez` 200 at once, `/readyz` 503 with
 * the warm-up step, and every other path 503 in the Error shape with
 * `Retry-After`. It listens with `reusePort`, as the app does, so the app can
 * take over the port before this listener stops: no moment without a listener.
 * The path is read as the app's plugins read it (plugins/request-path): an
 * HTTP/1.0 request without `Host` (HAProxy's default health check) has an
 * origin-form URL that `new URL()` refuses.
 */
import { API_VERSIONS } from '../config';
import { readiness, type WarmUp } from '../jobs/health';
import { newId } from '../ids';
import { CONSOLE_PATH, wantsPage, warmingPage } from '../console/page';
import { requestPath } from '../plugins/request-path';

const JSON_TYPE = 'application/json; charset=utf-8';

export function listenWhileWarming({ port, hostname, warmUp, startedAt }: { port: number; hostname: string; warmUp: WarmUp; startedAt: number }) {
  const uptime = () => Math.floor((Date.now() - startedAt) / 1000);
  return Bun.serve({
    port,
    hostname,
    reusePort: true,
    fetch(request) {
      const requestId = newId('req');
      const headers = { 'content-type': JSON_TYPE, 'x-request-id': requestId, 'api-version': API_VERSIONS[0] };
      const path = requestPath(request.url);
      if (path === '/livez') return Response.json({ status: 'ok', uptime: uptime() }, { headers });
      if (path === '/readyz') {
        const { checks } = readiness(warmUp, undefined);
        return Response.json({ status: warmUp.stopping ? 'stopping' : 'starting', step: warmUp.step, checks, uptime: uptime() }, { status: 503, headers });
      }
      if (wantsPage(request) && (path === '/' || path.startsWith(CONSOLE_PATH))) return warmingPage(warmUp.step);
      const error = `Starting up (${warmUp.step}); retry shortly`;
      return Response.json({ error, requestId, code: 'unavailable' }, { status: 503, headers: { ...headers, 'retry-after': '1' } });
    },
  });
}
