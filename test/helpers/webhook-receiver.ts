/**
 * A webhook receiver on loopback over TLS, with the committed test
 * certificate (test/fixtures/tls: self-signed for 127.0.0.1 and localhost,
 * which the server under test trusts through ALERT_WEBHOOK_CA_FILE). It
 * records every request (headers and raw body) and answers what `respond`
 * says: a status, or a promise that holds the answer back.
 */
import { join } from 'node:path';

export const TLS_DIR = join(import.meta.dir, '..', 'fixtures', 'tls');
export const TEST_CA_FILE = join(TLS_DIR, 'loopback.cert.pem');

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export async function webhookReceiver(respond: (n: number) => number | Promise<number> = () => 204) {
  const received: Received[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: await Bun.file(TEST_CA_FILE).text(), key: await Bun.file(join(TLS_DIR, 'loopback.key.pem')).text() },
    async fetch(request) {
      const body = await request.text();
      received.push({ headers: Object.fromEntries(request.headers), body, at: Date.now() });
      return new Response(null, { status: await respond(received.length) });
    },
  });
  return {
    url: `https://127.0.0.1:${server.port}/hooks/breakline`,
    received,
    stop: () => server.stop(true),
  };
}
