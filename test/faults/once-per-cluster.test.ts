/**
 * Three `breakline serve` processes started at the same moment on one empty
 * PostgreSQL database (a private server: test/helpers/postgres-server): all
 * three come up (migrations are serialised by an advisory lock; unserialised,
 * two of three died on `duplicate key value violates unique constraint
 * "pg_type_typname_nsp_index"`), and the work that belongs to the cluster runs
 * once: one warm-up daily scan persisted (the others waited and read it), one
 * boot replay started, by one instance, its records written once. The market
 * is the committed CSV excerpt (test/fixtures/geometry-defects: eight symbols
 * with SPY), so a two-year boot replay takes seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { migrations } from '../../drizzle/migrations';
import { GEOMETRY_FIXTURES } from '../helpers/geometry-fixtures';
import { privatePostgresSkip, startPostgresServer, type PostgresServer } from '../helpers/postgres-server';
import { startServer, type ServerProcess } from '../helpers/server-process';

const missing = privatePostgresSkip();
const INSTANCES = 3;

describe.skipIf(Boolean(missing))(`three instances on one empty PostgreSQL database${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let pg: PostgresServer;
  let sql: postgres.Sql;
  let stateDir: string;
  let servers: ServerProcess[] = [];
  const started: PromiseSettledResult<ServerProcess>[] = [];

  beforeAll(async () => {
    pg = await startPostgresServer();
    const url = await pg.createDatabase('breakline');
    sql = postgres(url, { max: 2, onnotice: () => {} });
    stateDir = mkdtempSync(join(tmpdir(), 'breakline-once-'));
    const env = (i: number) => ({
      DATABASE_URL: url,
      STATE_DIR: join(stateDir, String(i)),
      MARKET_DATA_PROVIDER: 'csv',
      CSV_DIR: GEOMETRY_FIXTURES,
      REPLAY_ON_BOOT: 'on',
    });
    // All at once: every one of them finds the database empty.
    started.push(...(await Promise.allSettled(Array.from({ length: INSTANCES }, (_, i) => startServer(env(i), 180_000)))));
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await sql?.end();
    await pg?.destroy();
    rmSync(stateDir, { recursive: true, force: true });
  }, 60_000);

  const messages = (server: ServerProcess, msg: string) => server.logs.filter((l) => l.msg === msg);

  it('brings all three up, the migrations applied once', async () => {
    expect(started.map((s) => (s.status === 'fulfilled' ? 'ready' : String(s.reason).slice(0, 400)))).toEqual(Array(INSTANCES).fill('ready'));
    const [applied] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(applied!.n).toBe(migrations.length);
    for (const server of servers) expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('persists the warm-up daily scan once; the others read that run', async () => {
    const runs = await sql<{ id: string }[]>`select id from scan_runs where timeframe = 'daily'`;
    expect(runs).toHaveLength(1);
    // Each instance serves that one run.
    const served = await Promise.all(
      servers.map(async (s) => ((await (await fetch(`${s.url}/api/breakouts?limit=1`)).json()) as { latestPersistedRun: { id?: string; runId?: string } | null }).latestPersistedRun),
    );
    expect(served.map((run) => run?.id ?? run?.runId)).toEqual(Array(INSTANCES).fill(runs[0]!.id));
    // Every signal the run found is in the ledger once.
    const [ledger] = await sql<{ records: number; signals: number }[]>`
      select count(*)::int as records, count(distinct signal_id)::int as signals from ledger_records where kind = 'signal'`;
    expect(ledger!.records).toBe(ledger!.signals);
  });

  it('runs the boot replay once, on one instance, its records written once', async () => {
    // Wait for the replay to finish (by whichever instance holds its lease).
    let status = '';
    for (let i = 0; i < 600 && status !== 'done'; i++) {
      const [run] = await sql<{ status: string }[]>`select status from replay_runs where origin = 'boot'`;
      status = run?.status ?? '';
      if (status !== 'done') await Bun.sleep(250);
    }
    const runs = await sql<{ id: string; signals: number; records: number }[]>`select id, signals, records from replay_runs`;
    expect(runs).toHaveLength(1);
    expect(status).toBe('done');
    const startedOn = servers.filter((s) => messages(s, 'replay started').length + messages(s, 'replay resumed').length > 0);
    expect(startedOn).toHaveLength(1);
    const [written] = await sql<{ records: number; signals: number; distinctSignals: number }[]>`
      select count(*)::int as records,
             count(*) filter (where kind = 'signal')::int as signals,
             count(distinct signal_id) filter (where kind = 'signal')::int as "distinctSignals"
      from replay_ledger_records where replay_id = ${runs[0]!.id}`;
    expect(written!.signals).toBe(written!.distinctSignals);
    expect(written!.signals).toBe(runs[0]!.signals);
    expect(written!.records).toBe(runs[0]!.records); // its first record (the parameters) included
  });

  it('logged no error and lost nothing uncaught', () => {
    const errors = servers.flatMap((s) => s.logs.filter((l) => l.level === 'error'));
    expect(errors).toEqual([]);
  });
});
