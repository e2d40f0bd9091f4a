/**
 * A private PostgreSQL 15 server for the tests that stop, restart or kill the
 * database (the one on 5432 is shared: never those): its own data directory in
 * a temporary folder, its own loopback port, trust authentication for the
 * `postgres` superuser. As root (CI, the dev machines) the server runs as the
 * `postgres` system user, which PostgreSQL requires; otherwise as the caller.
 * `postgresMissing()` names what is missing where the binaries are not
 * installed (a bare clone), so a suite can skip saying why.
 *
 * @example
 * const pg = await startPostgresServer();
 * const url = await pg.createDatabase('breakline');
 * await pg.stop(); await pg.start(); // a restart, same port, same data
 * await pg.destroy();
 */
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

/** Where Debian's postgresql-15 package puts the server binaries (PG_BIN overrides). */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** What a private server needs that is not here, or undefined when it can run. */
export function postgresMissing(): string | undefined {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(PG_BIN, tool))) return `${join(PG_BIN, tool)} not found (install postgresql-15, or set PG_BIN)`;
  }
  if (process.getuid?.() === 0 && !Bun.spawnSync(['id', '-u', 'postgres']).success) return 'running as root, but there is no postgres system user to run the server as';
  return undefined;
}

/**
 * Why a suite on private servers does not run here, or undefined when it does:
 * the binaries must be installed, and it runs in the PostgreSQL pass of the
 * suite (DATABASE_URL set, as `.ci/run`'s second pass) rather than in both.
 */
export function privatePostgresSkip(): string | undefined {
  return postgresMissing() ?? (process.env.DATABASE_URL ? undefined : 'runs in the PostgreSQL pass (DATABASE_URL set)');
}

export interface PostgresServer {
  port: number;
  /** The data directory's parent (the socket is there too). */
  dir: string;
  /** A URL for database `name` as the superuser. */
  url(name?: string): string;
  /** Creates a database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  start(): Promise<void>;
  /** `pg_ctl stop` in a mode: `fast` (the default: sessions ended, as an operator's restart) or `immediate` (a crash). */
  stop(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  /** Stops it (immediately) and removes its folder. */
  destroy(): Promise<void>;
}

/** A free loopback port (asked of the kernel, then released for the server to take). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary, as the postgres user when we are root; throws with its output when it fails. */
async function run(args: string[]): Promise<void> {
  const command = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...args] : args;
  const proc = Bun.spawn(command, { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '', LANG: 'C' } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${out}${err}`);
}

/** Initialises and starts a private server on a free port (or `port`). */
export async function startPostgresServer(options: { port?: number } = {}): Promise<PostgresServer> {
  const missing = postgresMissing();
  if (missing) throw new Error(`no private PostgreSQL: ${missing}`);
  const dir = mkdtempSync(join(tmpdir(), 'breakline-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim());
    const gid = Number(Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = options.port ?? (await freePort());
  await run([join(PG_BIN, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  // fsync off: a test server loses nothing that matters in a crash of the machine, and starts and checkpoints faster.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => run([join(PG_BIN, 'pg_ctl'), '-D', data, '-o', serverOptions, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = (mode: 'smart' | 'fast' | 'immediate' = 'fast') => run([join(PG_BIN, 'pg_ctl'), '-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  const url = (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`;
  await start();
  return {
    port,
    dir,
    url,
    async createDatabase(name) {
      const admin = postgres(url(), { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    start,
    stop,
    async destroy() {
      await stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
