/**
 * @module test/helpers/cluster/haproxy
 * Debian's HAProxy (`/usr/sbin/haproxy`, or HAPROXY_BIN) in front of the
 * cluster's instances, with deploy/haproxy.cfg — the same file the compose
 * example uses — its addresses given through the environment. `stats()`
 * reads each server's state and the backend's retry and redispatch counters
 * from the stats page (CSV columns of the HAProxy 2.6 management guide §9.1).
 */
import type { Subprocess } from 'bun';
import { join } from 'node:path';
import { releasePort } from './ports';

export const HAPROXY_CONFIG = join(import.meta.dir, '..', '..', '..', 'deploy', 'haproxy.cfg');
const BIN = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';

export interface BalancerStats {
  /** Server name → `UP`, `DOWN`, `MAINT`, … (with a transition such as `UP 1/2` as HAProxy writes it). */
  servers: Record<string, string>;
  /** Requests the backend retried (`wretr`) and sent to another server (`wredis`), since HAProxy started. */
  retries: number;
  redispatches: number;
}

export interface Balancer {
  url: string;
  stats(): Promise<BalancerStats>;
  stop(): Promise<void>;
  /** SIGKILL at once: for a test process that is being interrupted. */
  stopNow(): void;
}

/** Starts HAProxy in the foreground with `servers` (host:port, three) and waits until its stats page answers. */
export async function startHaproxy(options: { port: number; statsPort: number; servers: string[] }): Promise<Balancer> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HAPROXY_BIND: `127.0.0.1:${options.port}`,
    HAPROXY_STATS_BIND: `127.0.0.1:${options.statsPort}`,
  };
  options.servers.forEach((server, i) => (env[`BREAKLINE_APP${i + 1}`] = server));
  await Promise.all([releasePort(options.port), releasePort(options.statsPort)]);
  const proc: Subprocess<'ignore', 'ignore', 'pipe'> = Bun.spawn([BIN, '-db', '-f', HAPROXY_CONFIG], { env, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const errors = new Response(proc.stderr).text();
  const statsUrl = `http://127.0.0.1:${options.statsPort}/stats;csv`;
  const stats = async (): Promise<BalancerStats> => {
    const csv = await (await fetch(statsUrl)).text();
    const [header, ...rows] = csv.trim().split('\n');
    const columns = header!.replace(/^# /, '').split(',');
    const at = (name: string) => columns.indexOf(name);
    const result: BalancerStats = { servers: {}, retries: 0, redispatches: 0 };
    for (const row of rows.map((r) => r.split(','))) {
      if (row[at('pxname')] !== 'breakline') continue;
      const name = row[at('svname')]!;
      if (name === 'BACKEND') {
        result.retries = Number(row[at('wretr')] || 0);
        result.redispatches = Number(row[at('wredis')] || 0);
      } else if (name !== 'FRONTEND') result.servers[name] = row[at('status')]!;
    }
    return result;
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await stats();
      break;
    } catch {
      if (proc.exitCode !== null || attempt > 100) throw new Error(`haproxy did not start (exit ${proc.exitCode}): ${await errors}`);
      await Bun.sleep(100);
    }
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    stats,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
    },
    stopNow: () => proc.kill('SIGKILL'),
  };
}
