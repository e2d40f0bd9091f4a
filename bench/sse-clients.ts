/**
 * A client process of the SSE benches (bench/sse, bench/live, bench/sse-loops):
 * the shared client of `breakline capacity` (src/cli/capacity/stream-clients)
 * holding `count` SSE connections to `host:port` over raw loopback sockets, and
 * counting `event` (default `breakouts.state_change`) with the delay from the
 * publish time its payload's `price` carries (epoch ms) to receipt. Its
 * parent holds it through src/cli/capacity/stream-fleet.
 *
 *   bun run bench/sse-clients.ts '{"host":…,"port":…,"paths":[…],"count":…,"events":{…}}'
 *   bun run bench/sse-clients.ts <host> <port> <path> <count> [event]
 *
 * `path` may hold several paths separated by `|`: connection i asks the
 * i-th (round robin), so one process can hold subscriptions to different
 * symbols (bench/live).
 */
import { parseClientsConfig, runStreamClients, type StreamClientsConfig } from '../src/cli/capacity/stream-clients';

const args = process.argv.slice(2);
const config: StreamClientsConfig =
  args.length === 1
    ? parseClientsConfig(args[0]!)
    : { host: args[0]!, port: Number(args[1]), paths: args[2]!.split('|'), count: Number(args[3]), events: { [args[4] ?? 'breakouts.state_change']: 'price' } };
await runStreamClients(config);
