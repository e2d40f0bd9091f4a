/**
 * @module test/helpers/cluster/leader
 * Which instance leads the scheduler: the PostgreSQL backend holding the
 * scheduler's advisory lock (pg_locks, in this deployment's database; a
 * bigint key is classid = high 32 bits, objid = low 32 bits, PostgreSQL 15
 * docs §54.12), its client's TCP port, and the process owning that socket
 * (`ss -tnp`, iproute2).
 */
import { LOCK_KEYS } from '../../../src/db/cluster-locks';
import type { Deployment } from './cluster';
import type { Instance } from './instance';

export async function schedulerLeader(deployment: Deployment): Promise<Instance | undefined> {
  const ports = await deployment.withSql(
    (sql) => sql<{ port: number }[]>`
      select a.client_port as port from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.classid = ${Math.floor(LOCK_KEYS.scheduler / 2 ** 32)} and l.objid = ${LOCK_KEYS.scheduler % 2 ** 32}
        and l.database = (select oid from pg_database where datname = current_database())`,
  );
  for (const { port } of ports) {
    const proc = Bun.spawn(['ss', '-Htnp', 'state', 'established', `( sport = :${port} )`], { stdout: 'pipe', stderr: 'ignore' });
    const out = await new Response(proc.stdout).text();
    const pid = Number(/pid=(\d+)/.exec(out)?.[1]);
    const leader = deployment.instances.find((i) => i.pid === pid);
    if (leader) return leader;
  }
  return undefined;
}
