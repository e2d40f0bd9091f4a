/**
 * @module test/helpers/cluster/postgres
 * The cluster suite's PostgreSQL 15: a private server (../postgres-server,
 * the one the fault tests use) on a port of the suite's range, which the
 * suite stops and starts (the shared server on 5432 serves every engineer
 * and is never touched). On top of it: the service's own role `breakline`,
 * owner of each deployment's database (the instances connect as it, as in
 * production; the suite's audits as the superuser); the port held by a
 * placeholder while the server is down (./ports: the range lies inside
 * Linux's ephemeral ports); and a synchronous stop for an interrupted run.
 * `stop()` is `pg_ctl stop -m fast` (what an operator's restart does:
 * clients are disconnected, a checkpoint is written).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { PG_BIN, startPostgresServer } from '../postgres-server';
import { holdPort, releasePort } from './ports';

const ROLE = 'breakline';

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

/** Runs `statement` as the superuser on the server's `postgres` database. */
async function asSuperuser(url: string, statement: string): Promise<void> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

export async function startPostgres(port: number): Promise<PrivatePostgres> {
  await releasePort(port);
  const server = await startPostgresServer({ port });
  await asSuperuser(server.url(), `CREATE ROLE ${ROLE} LOGIN PASSWORD '${ROLE}'`);
  return {
    port,
    url: (database) => `postgres://${ROLE}:${ROLE}@127.0.0.1:${port}/${database}`,
    adminUrl: (database) => server.url(database),
    createDatabase: (name) => asSuperuser(server.url(), `CREATE DATABASE ${name} OWNER ${ROLE}`),
    stop: () => server.stop('fast').then(() => holdPort(port)),
    async start() {
      await releasePort(port);
      await server.start();
    },
    destroy: () => server.destroy(),
    destroyNow() {
      const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
      Bun.spawnSync([...asPostgres, join(PG_BIN, 'pg_ctl'), '-D', join(server.dir, 'data'), '-m', 'immediate', 'stop'], { stdout: 'ignore', stderr: 'ignore' });
      rmSync(server.dir, { recursive: true, force: true });
    },
  };
}
