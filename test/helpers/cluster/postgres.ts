/**
 * @module test/helpers/cluster/postgres
 * A PostgreSQL 15 server of the cluster suite's own, in a temporary
 * directory on a port of its range: the suite stops and starts it (the
 * shared server on 5432 serves every engineer and is never touched). Run as
 * root, the server runs as the `postgres` user (PostgreSQL refuses root), as
 * `.ci/run` does. `stop()` is `pg_ctl stop -m fast` (what an operator's
 * restart does: clients are disconnected, a checkpoint is written).
 *
 * The lead unifies this with the db engineer's test/helpers/postgres-server.ts at merge.
 */
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { holdPort, releasePort } from './ports';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const ROLE = 'breakline';

/** Runs a PostgreSQL program as the `postgres` user when we are root; throws with its output on failure. */
async function pgTool(args: string[]): Promise<string> {
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const proc = Bun.spawn([...asPostgres, ...args], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${out}${err}`);
  return out;
}

export interface PrivatePostgres {
  port: number;
  /** `postgres://breakline:…@127.0.0.1:port/<database>` (the service's role, owner of the database). */
  url(database: string): string;
  /** The superuser's URL of a database (the suite's checks read through it). */
  adminUrl(database: string): string;
  createDatabase(name: string): Promise<void>;
  /** pg_ctl stop -m fast. */
  stop(): Promise<void>;
  /** pg_ctl start, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediate) and removes its directory. */
  destroy(): Promise<void>;
  /** The same, synchronously: for a test process that is being interrupted. */
  destroyNow(): void;
}

export async function startPostgres(port: number): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'breakline-cluster-pg-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = await postgresUser();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  await pgTool([`${BIN}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  // fsync off: the suite tests the service, not the disk; a fast stop still checkpoints, so nothing committed is lost.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const start = async () => {
    await releasePort(port);
    await pgTool([`${BIN}/pg_ctl`, '-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  };
  const stop = (mode: 'fast' | 'immediate') => pgTool([`${BIN}/pg_ctl`, '-D', data, '-m', mode, '-w', '-t', '60', 'stop']).then(() => {});
  await start();
  const adminUrl = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = postgres(adminUrl('postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${ROLE}'`);
  await admin.end();
  return {
    port,
    url: (database) => `postgres://${ROLE}:${ROLE}@127.0.0.1:${port}/${database}`,
    adminUrl,
    async createDatabase(name) {
      const client = postgres(adminUrl('postgres'), { max: 1, onnotice: () => {} });
      try {
        await client.unsafe(`CREATE DATABASE ${name} OWNER ${ROLE}`);
      } finally {
        await client.end();
      }
    },
    stop: () => stop('fast').then(() => holdPort(port)),
    start,
    async destroy() {
      await stop('immediate').catch(() => {}); // already stopped is fine
      rmSync(dir, { recursive: true, force: true });
    },
    destroyNow() {
      const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
      Bun.spawnSync([...asPostgres, `${BIN}/pg_ctl`, '-D', data, '-m', 'immediate', 'stop'], { stdout: 'ignore', stderr: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The uid and gid of the `postgres` user (the Debian package creates it). */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const line = (await Bun.file('/etc/passwd').text()).split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user: install postgresql-15 (Debian) or run the suite as a non-root user');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
