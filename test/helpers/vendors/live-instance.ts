/**
 * @module test/helpers/vendors/live-instance
 * One instance's live feed as a process of its own, for the cluster test
 * (test/providers/live-cluster.test.ts): the alpaca provider on the loopback
 * server, shared over the cluster (background/live-feed: the lease on
 * DATABASE_URL, the relay on REDIS_URL), its universe SPY, watching the
 * symbols of WATCH. Every bar, window close and watched trade it gets is
 * written to stdout as a JSON line, and its role and stream state each
 * 100 ms, so the test sees what a real instance would feed its store and
 * its SSE clients. The test ends it with SIGKILL: a dead instance.
 *
 * env: DATABASE_URL, REDIS_URL, REDIS_KEY_PREFIX, ALPACA_DATA_URL, ALPACA_STREAM_URL, ALPACA_KEY_ID, ALPACA_SECRET_KEY, WATCH
 */
import { shareLiveFeed } from '../../../src/background/live-feed';
import { postgresLocks } from '../../../src/db/cluster-locks';
import { createLogger } from '../../../src/log';
import { createAlpacaProvider } from '../../../src/providers/alpaca';
import type { ClusterFeed } from '../../../src/providers/live/cluster';

const env = process.env;
const out = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const log = createLogger('info', (line) => process.stderr.write(`${line}\n`));
const provider = createAlpacaProvider({
  keyId: env.ALPACA_KEY_ID!,
  secretKey: env.ALPACA_SECRET_KEY!,
  dataUrl: env.ALPACA_DATA_URL!,
  feed: 'sip',
  adjustment: 'split',
  ratePerMinute: 60_000,
  live: { streamUrl: env.ALPACA_STREAM_URL!, log, silentMs: 60_000, graceMs: 200, backoff: { baseMs: 20, maxMs: 200 }, refusedRetryMs: 1_000 },
});
const live = shareLiveFeed(provider.live!, { locks: postgresLocks(env.DATABASE_URL!), redisUrl: env.REDIS_URL, redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'breakline:', log, pollMs: 200, heartbeatMs: 200 }) as ClusterFeed;
live.onBar((bar) => out({ bar }));
live.onClose((close) => out({ close }));
for (const symbol of (env.WATCH ?? '').split(',').filter(Boolean)) live.watch(symbol, (trade) => out({ trade }));
live.setUniverse(['SPY']);
live.start();
setInterval(() => out({ leader: live.leader, state: live.status().state, missed: live.missed }), 100);
