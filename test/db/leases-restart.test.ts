/**
 * A lease (db/lease) across a PostgreSQL restart, on a private server
 * (test/helpers/postgres-server): the holder's term ends the moment its lock
 * connection closes (its signal aborted with LeaseLost), nobody holds it while
 * the database is away, and afterwards exactly one instance takes it — never
 * two terms at once. A lock session ended by the server alone
 * (pg_terminate_backend) ends the term too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import postgres from 'postgres';
import { Lease, LeaseLost } from '../../src/db/lease';
import { LOCK_KEYS, postgresLocks, type ClusterLocks } from '../../src/db/cluster-locks';
import { createLogger } from '../../src/log';
import { privatePostgresSkip, startPostgresServer, type PostgresServer } from '../helpers/postgres-server';

const missing = privatePostgresSkip();
const log = createLogger('silent');

describe.skipIf(Boolean(missing))(`leases across a PostgreSQL restart${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let pg: PostgresServer;
  let url: string;
  const locks: ClusterLocks[] = [];
  const leases: Lease[] = [];

  beforeAll(async () => {
    pg = await startPostgresServer();
    url = await pg.createDatabase('breakline');
  }, 120_000);

  afterAll(async () => {
    for (const lease of leases) await lease.close();
    for (const l of locks) await l.close();
    await pg?.destroy();
  });

  const instance = (checkMs = 60_000) => {
    const l = postgresLocks(url);
    locks.push(l);
    const lease = new Lease({ name: 'scheduler', key: LOCK_KEYS.scheduler, locks: l, log, checkMs });
    leases.push(lease);
    return lease;
  };

  it('ends the term when PostgreSQL stops, and lets exactly one instance take it when it is back', async () => {
    const [a, b] = [instance(), instance()];
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    const term = a.signal;

    await pg.stop('fast');
    for (let i = 0; i < 100 && a.held; i++) await Bun.sleep(50);
    expect(a.held).toBe(false);
    expect(term.aborted).toBe(true);
    expect(term.reason).toBeInstanceOf(LeaseLost);
    expect([await a.acquire(), await b.acquire()]).toEqual([false, false]); // nobody holds it while the database is away
    expect(a.unreachable).toBe(true);

    await pg.start();
    const first = await b.acquire();
    const second = await a.acquire();
    expect([first, second]).toEqual([true, false]);
    expect([a.held, b.held]).toEqual([false, true]);
    await b.release();
    expect(await a.acquire()).toBe(true);
    await a.release();
  }, 120_000);

  it('ends the term when the server ends the lock session by itself', async () => {
    const lease = instance(200);
    expect(await lease.acquire()).toBe(true);
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = ${LOCK_KEYS.scheduler}::bigint::oid and granted`;
    } finally {
      await admin.end();
    }
    for (let i = 0; i < 100 && lease.held; i++) await Bun.sleep(50);
    expect(lease.held).toBe(false);
    expect(await lease.acquire()).toBe(true); // free again: a new term
    await lease.release();
  }, 60_000);
});
