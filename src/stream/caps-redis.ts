/**
 * @module stream/caps-redis
 * The per-client stream count shared by every instance on one Redis: for each
 * client key a sorted set `<REDIS_KEY_PREFIX>streams:<key>` whose members are
 * the open streams (`<instance>:<n>`), each scored with the time its lease
 * ends. A stream is counted in by one Lua script (drop expired leases, count,
 * add), atomic on the server, so N instances admitting at once admit exactly
 * the cap. Each instance renews the leases of its open streams every
 * `leaseMs / 3` (re-adding them if Redis lost them in a restart) and removes a
 * stream's member when it ends; an instance that dies stops renewing, and its
 * streams' places come back once their leases end. Times are Redis's own
 * (`TIME`), so the instances' clocks need not agree.
 *
 * Redis sorted sets: https://redis.io/docs/latest/develop/data-types/sorted-sets/
 */
import type { RedisLink } from '../redis/link';

/** How long a stream's place is held without a renewal: an instance killed gives its places back within this. */
export const STREAM_LEASE_MS = 30_000;

/** Admits one member under a limit: 1 when counted in, 0 when the key holds `limit` live members already. */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** Renews (or re-adds) the leases of the members given. */
const RENEW = `
local t = redis.call('TIME')
local expiry = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expiry, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return #ARGV - 1`;

export class SharedStreamCounts {
  /** This instance's open streams counted in Redis, by client key. */
  private readonly members = new Map<string, string[]>();
  private next = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly redis: RedisLink,
    private readonly options: { instanceId: string; leaseMs: number },
  ) {}

  private key(client: string): string {
    return this.redis.key(`streams:${client}`);
  }

  /**
   * Counts a stream of `client` in across the cluster: true when admitted,
   * false when it holds `limit` there already. Throws when Redis cannot be
   * asked (the caller keeps its per-instance count alone meanwhile); the
   * stream is renewed from then on either way (`hold`).
   */
  async admit(client: string, limit: number): Promise<boolean> {
    const member = `${this.options.instanceId}:${++this.next}`;
    const admitted = (await this.redis.run((r) => r.eval(ADMIT, 1, this.key(client), member, String(limit), String(this.options.leaseMs)) as Promise<number>)) === 1;
    if (admitted) this.hold(client, member);
    return admitted;
  }

  /** A stream admitted without Redis (it was down): renewed into the shared count from the next heartbeat on. */
  holdUncounted(client: string): void {
    this.hold(client, `${this.options.instanceId}:${++this.next}`);
  }

  /** One of this instance's streams of `client` ended: its place is given back (or expires, if Redis cannot be told). */
  release(client: string): void {
    const held = this.members.get(client);
    const member = held?.pop();
    if (held?.length === 0) this.members.delete(client);
    if (member !== undefined) void this.redis.run((r) => r.zrem(this.key(client), member)).catch(() => undefined);
  }

  /** Starts renewing this instance's leases every `leaseMs / 3`. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.options.leaseMs / 3)));
    this.timer.unref?.();
  }

  /** Stops renewing and gives this instance's places back (a clean stop; after a crash they expire). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const held = [...this.members];
    this.members.clear();
    await this.redis.run((r) => Promise.all(held.map(([client, members]) => r.zrem(this.key(client), ...members)))).catch(() => undefined);
  }

  /** Renews every lease this instance holds, in one pipeline; skipped while Redis is down (the next one re-adds them). */
  async renew(): Promise<void> {
    if (this.members.size === 0) return;
    const held = [...this.members];
    await this.redis
      .run((r) => {
        const pipeline = r.pipeline();
        for (const [client, members] of held) pipeline.eval(RENEW, 1, this.key(client), String(this.options.leaseMs), ...members);
        return pipeline.exec();
      })
      .catch(() => undefined);
  }

  private hold(client: string, member: string): void {
    const held = this.members.get(client);
    if (held) held.push(member);
    else this.members.set(client, [member]);
  }
}
