/**
 * One vendor connection per cluster (background/live-feed, providers/live/cluster):
 * two instances — processes of their own (test/helpers/vendors/live-instance)
 * — on one PostgreSQL database (the lease) and one private Redis (the relay),
 * against the loopback Alpaca server, which allows one authenticated session
 * per account and refuses a second with `406 connection limit exceeded`, as
 * Alpaca's stream does (alpacahq/alpaca-docs, realtime.md). The server must
 * see exactly one connection at a time; the follower must get the leader's
 * bars and the trades its own client watches; when the leader dies (SIGKILL:
 * no goodbye, its lock session ends with its TCP connection) the follower
 * takes the connection over.
 *
 * PostgreSQL only (the lease is a PostgreSQL advisory lock); it needs
 * `redis-server` on PATH for a Redis of its own on port 46801.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import type { LiveBar, LiveTrade } from '../../src/providers/live/types';
import { freshDatabaseUrl, usingPostgres } from '../helpers/db';
import { startAlpacaServer, type AlpacaServer } from '../helpers/vendors/alpaca-server';
import { until } from '../helpers/until';
import { alpacaMinutes } from '../helpers/vendors/recordings';

const REDIS_PORT = 46801;
const hasRedis = Bun.which('redis-server') !== null;

interface Line {
  bar?: LiveBar;
  trade?: LiveTrade;
  leader?: boolean;
  state?: string;
}

/** A live-instance process and every line it wrote. */
class Instance {
  readonly lines: Line[] = [];
  readonly proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  constructor(env: Record<string, string>) {
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, '..', 'helpers', 'vendors', 'live-instance.ts')], { env: { PATH: process.env.PATH ?? '', ...env }, stdout: 'pipe', stderr: 'pipe' });
    this.proc = proc;
    void (async () => {
      let buffered = '';
      for await (const chunk of proc.stdout) {
        buffered += new TextDecoder().decode(chunk);
        let newline;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          this.lines.push(JSON.parse(buffered.slice(0, newline)) as Line);
          buffered = buffered.slice(newline + 1);
        }
      }
    })();
    void new Response(proc.stderr).text(); // drained: a full pipe would stall it
  }
  get role(): Line | undefined {
    return this.lines.findLast((line) => line.leader !== undefined);
  }
  bars(t: number): LiveBar[] {
    return this.lines.flatMap((line) => (line.bar && line.bar.symbol === 'SPY' && line.bar.timeframe === '1h' && line.bar.bar.c === alpacaMinutes().find((m) => m.t === t)!.c ? [line.bar] : []));
  }
  trades(t: number): LiveTrade[] {
    return this.lines.flatMap((line) => (line.trade && line.trade.ts === t + 59_000 ? [line.trade] : []));
  }
}

describe.skipIf(!usingPostgres || !hasRedis)('one vendor connection per cluster', () => {
  let server: AlpacaServer;
  let redis: Subprocess;
  let database: { url: string; drop: () => Promise<void> };
  let env: Record<string, string>;
  const instances: Instance[] = [];
  const minutes = alpacaMinutes();
  // The recorded session's first minutes (09:30 and 09:31 New York; the recording starts pre-market).
  const open = Date.parse('2025-04-24T13:30:00Z');
  const minute = (i: number) => open + i * 60_000;

  beforeAll(async () => {
    server = startAlpacaServer({ now: Date.now });
    redis = Bun.spawn(['redis-server', '--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdout: 'ignore', stderr: 'ignore' });
    database = (await freshDatabaseUrl())!;
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
      REDIS_KEY_PREFIX: `t${crypto.randomUUID().slice(0, 8)}:`,
      ALPACA_DATA_URL: server.restUrl,
      ALPACA_STREAM_URL: server.streamUrl,
      ALPACA_KEY_ID: server.credentials.keyId,
      ALPACA_SECRET_KEY: server.credentials.secretKey,
    };
  });
  afterAll(async () => {
    for (const instance of instances) instance.proc.kill('SIGKILL');
    await Promise.all(instances.map((instance) => instance.proc.exited));
    redis?.kill();
    server?.stop();
    await database?.drop();
  });

  it('connects once: the first instance holds the stream, the second follows it', async () => {
    instances.push(new Instance(env));
    const [a] = instances;
    await until('the first instance to lead and stream', () => a!.role?.leader === true && a!.role.state === 'streaming', 30_000);
    instances.push(new Instance({ ...env, WATCH: 'SPY' }));
    const b = instances[1]!;
    await until('the second instance to follow the stream', () => b.role?.leader === false && b.role.state === 'streaming', 30_000);
    // The follower's client watches SPY: the leader subscribes its trades at the vendor on its behalf.
    await until('SPY trades subscribed for the follower', () => [...server.stream.sockets].some((ws) => ws.data.trades.has('SPY')), 10_000);
    expect(server.stream.authentications).toBe(1);
    expect(server.stream.peakSockets).toBe(1);
    expect(server.stream.limitRefusals).toBe(0);
  });

  it('hands the leader’s bars and the watched trades to the follower', async () => {
    const [a, b] = instances as [Instance, Instance];
    server.minute(minute(0));
    await until('the minute on both instances', () => a.bars(minute(0)).length > 0 && b.bars(minute(0)).length > 0 && b.trades(minute(0)).length > 0, 10_000);
    expect(b.bars(minute(0))[0]).toEqual(a.bars(minute(0))[0]!);
    expect(b.trades(minute(0))[0]).toMatchObject({ symbol: 'SPY', price: minutes.find((m) => m.t === open)!.c });
    expect(a.trades(minute(0))).toEqual([]); // nobody watches SPY on the leader
  });

  it('moves the connection to the follower when the leader dies, never two at once', async () => {
    const [a, b] = instances as [Instance, Instance];
    a.proc.kill('SIGKILL');
    await a.proc.exited;
    await until('the follower to take the stream over', () => b.role?.leader === true && b.role.state === 'streaming', 30_000);
    expect(server.stream.authentications).toBe(2);
    expect(server.stream.peakSockets).toBe(1);
    expect(server.stream.limitRefusals).toBe(0);
    await until('SPY trades subscribed by the new leader', () => [...server.stream.sockets].some((ws) => ws.data.trades.has('SPY')), 10_000);
    server.minute(minute(1));
    await until('the next minute on the new leader', () => b.bars(minute(1)).length > 0 && b.trades(minute(1)).length > 0, 10_000);
  });
});
