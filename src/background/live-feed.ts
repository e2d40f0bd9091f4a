/**
 * @module background/live-feed
 * The vendor connection, once per cluster: when instances share a PostgreSQL
 * database (its advisory locks) and a Redis (`REDIS_URL`), a provider's live
 * feed is wrapped in a `ClusterFeed` (providers/live/cluster) so only the
 * holder of the `liveFeed` lease connects to the vendor and the others read
 * its bars and trades over Redis. Alone (PGlite, or no Redis to relay over),
 * an instance keeps its own connection, as before.
 */
import { LOCK_KEYS, type ClusterLocks } from '../db/cluster-locks';
import type { Logger } from '../log';
import { ClusterFeed } from '../providers/live/cluster';
import { RedisLiveRelay } from '../providers/live/relay';
import type { LiveFeed } from '../providers/live/types';
import { Lease } from '../db/lease';

export interface ShareOptions {
  locks: ClusterLocks;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  log: Logger;
  /** Test timing: how often the lease is tried, and the relay's heartbeat. */
  pollMs?: number;
  heartbeatMs?: number;
}

/** The feed every instance of a cluster shares, or `live` itself when it runs alone. */
export function shareLiveFeed(live: LiveFeed, options: ShareOptions): LiveFeed {
  const { locks, redisUrl, log } = options;
  if (!locks.shared || !redisUrl) return live;
  return new ClusterFeed({
    local: live,
    lease: new Lease({ name: `${live.vendor} stream`, key: LOCK_KEYS.liveFeed, locks, log, announce: true, checkMs: options.pollMs }),
    relay: new RedisLiveRelay({ url: redisUrl, keyPrefix: options.redisKeyPrefix, vendor: live.vendor, log }),
    instance: crypto.randomUUID(),
    log,
    pollMs: options.pollMs,
    heartbeatMs: options.heartbeatMs,
  });
}
