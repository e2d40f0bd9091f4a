/**
 * @module cli/capacity/roles
 * The processes a capacity run starts from this same executable
 * (`breakline capacity --role NAME`), each talking to its parent in JSON
 * lines on stdio:
 *
 * - `instance`: the service as `serve` builds it (createServices, createApp,
 *   the warm-up) on the configuration of its environment, without the
 *   scheduler and the boot replay (a scan or a replay in the middle of a
 *   step would be measured as the load's cost): it runs the daily scan once
 *   before it says it is ready. It prints `{"url","pid"}` once
 *   ready; a line `{"publish": r}` makes it publish r timed
 *   `breakouts.state_change` events a second on its event bus (the publish
 *   time, epoch ms, in `price`, as bench/sse does), so delivery is measured
 *   whatever the market's hours; `exit` closes it.
 * - `bare`: a bare `Bun.serve` answering each of the paths it is given with
 *   the bytes and content type it is given (the CI smoke's yardstick: the
 *   cost of HTTP alone on this runtime). Prints `{"url","pid"}`; a line
 *   `@file` gives it its paths anew.
 * - `stream-clients`: cli/capacity/stream-clients.
 */
import { readFileSync } from 'node:fs';
import { createLogger } from '../../log';
import { configOrExit } from '../config';

const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

export async function instanceRole(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  const [{ createServices }, { createApp }] = await Promise.all([import('../../services'), import('../../app')]);
  const services = await createServices(config, { warmPool: true, log });
  const app = createApp(services).listen({ port: config.port, hostname: config.host });
  await services.warm();
  // The daily scan a serving instance would have run, so the routes answer over real signals (an empty list would flatter them).
  await services.runs.current('daily');
  say({ url: `http://${config.host}:${app.server!.port}`, pid: process.pid });

  let rate = 0;
  let due = performance.now();
  let n = 0;
  // Every 10 ms, the events due by now (a steady rate, as a scan's bursts would not be).
  const timer = setInterval(() => {
    const now = performance.now();
    if (rate <= 0) return void (due = now);
    while (due <= now) {
      services.bus.publish('breakouts.state_change', { signalId: `CAPACITY-${n++}`, symbol: 'SPY', from: 'forming', to: 'triggered', price: performance.timeOrigin + performance.now(), at: new Date().toISOString() });
      due += 1000 / rate;
    }
  }, 10);
  const stop = async () => {
    clearInterval(timer);
    await services.hub.close();
    await app.stop(true);
    await services.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  for await (const line of console) {
    if (line === 'exit') break;
    const command = JSON.parse(line) as { publish?: number };
    if (typeof command.publish === 'number') rate = command.publish;
  }
  await stop();
}

/**
 * The bare handler: `{"routes": {"/path": {"body": base64, "type": "…"}}}` as
 * its argument, or `@file` holding it (bodies outgrow an argument list), or
 * later as a line `@file` on its stdin (the smoke starts it while the
 * instance it copies boots); a path it has no answer for is a 404.
 */
export async function bareRole(arg?: string): Promise<void> {
  const read = (text: string) => {
    const { routes } = JSON.parse(text.startsWith('@') ? readFileSync(text.slice(1), 'utf8') : text) as { routes: Record<string, { body: string; type: string }> };
    return new Map(Object.entries(routes).map(([path, { body, type }]) => [path, { body: Buffer.from(body, 'base64'), type }]));
  };
  let answers = read(arg ?? '{"routes":{}}');
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = request.url;
      const answer = answers.get(url.slice(url.indexOf('/', 8)));
      return answer ? new Response(answer.body, { headers: { 'content-type': answer.type } }) : new Response(null, { status: 404 });
    },
  });
  say({ url: `http://127.0.0.1:${server.port}`, pid: process.pid });
  for await (const line of console) {
    if (line === 'exit') break;
    if (line.startsWith('@')) answers = read(line);
  }
  server.stop(true);
  process.exit(0);
}
