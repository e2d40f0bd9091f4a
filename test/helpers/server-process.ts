/**
 * Breakline as a real process on a loopback port (`bun src/index.ts …`): for
 * the end-to-end tests that need several instances or the CLI. The
 * environment is exactly what the caller gives (plus PATH), never the test
 * runner's, so DATABASE_URL or REDIS_URL reach a process only when meant to.
 */
import type { Subprocess } from 'bun';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

type LogEntry = Record<string, unknown>;

export interface ServerProcess {
  url: string;
  pid: number;
  /** The JSON log lines the server wrote (stderr). */
  logs: LogEntry[];
  stop(): Promise<void>;
  /** Sends a signal to the process. */
  signal(signal: NodeJS.Signals): void;
  /** The exit code, once the process has exited. */
  exited: Promise<number>;
  /** Resolves with the first log line (seen already or to come) that `match` accepts. */
  logged(match: (entry: LogEntry) => boolean): Promise<LogEntry>;
}

/** A `breakline serve` process as it runs: its logs as they come, when it is ready, when it exits. */
export interface SpawnedServer {
  proc: Subprocess<'ignore', 'ignore', 'pipe'>;
  /** The JSON log lines the server wrote (stderr); a line that is not JSON is kept as `{ msg: line }`. */
  logs: LogEntry[];
  /**
   * Resolves to the URL once the server logs `breakline ready` (or, given
   * `until`, at the first line `until` accepts: the URL of the `listening`
   * line by then); rejects when it exits first.
   */
  ready: Promise<string>;
  /** Resolves to the exit code once stderr is read to its end and the process has exited. */
  exited: Promise<number>;
  /** Resolves with the first log line (seen already or to come) that `match` accepts. */
  logged(match: (entry: LogEntry) => boolean): Promise<LogEntry>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** The environment every spawned server gets under the caller's (a free port, loopback, no scheduler, one worker). */
const SERVER_DEFAULTS = { PORT: '0', HOST: '127.0.0.1', SCAN_INTERVAL_SECONDS: '0', POOL_SIZE: '1', LOG_LEVEL: 'info' };

/**
 * Spawns `breakline serve` and returns at once; stderr is read to its end (a
 * full pipe would stall the server). From source, or the executable `binary`
 * (`npm run build`'s dist/breakline, what the Docker image runs).
 */
export function spawnServer(env: Record<string, string>, binary?: string, until?: (entry: LogEntry) => boolean): SpawnedServer {
  const proc = Bun.spawn(binary ? [binary, 'serve'] : [process.execPath, 'src/index.ts', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...SERVER_DEFAULTS, ...env },
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const logs: LogEntry[] = [];
  const watchers = new Set<(entry: LogEntry) => void>();
  const logged = (match: (entry: LogEntry) => boolean) =>
    new Promise<LogEntry>((resolve) => {
      const seen = logs.find(match);
      if (seen) return resolve(seen);
      const watch = (entry: LogEntry) => match(entry) && (watchers.delete(watch), resolve(entry));
      watchers.add(watch);
    });
  let url: string | undefined;
  const { promise: ready, resolve, reject } = Promise.withResolvers<string>();
  ready.catch(() => {}); // a caller that only waits for the exit need not handle it
  const exited = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    const take = (line: string) => {
      if (!line) return;
      try {
        const entry = JSON.parse(line) as LogEntry;
        logs.push(entry);
        for (const watch of [...watchers]) watch(entry);
        if (typeof entry.url === 'string') url ??= entry.url;
        if (until ? until(entry) : entry.msg === 'breakline ready' && typeof entry.url === 'string') resolve(url ?? '');
      } catch {
        logs.push({ msg: line });
      }
    };
    for await (const chunk of proc.stderr) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        take(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
      }
    }
    take(buffered);
    const code = await proc.exited;
    reject(new Error(`server exited before it was ready (code ${code}): ${JSON.stringify(logs)}`));
    return code;
  })();
  const stop = async (graceMs = 10_000) => {
    proc.kill('SIGTERM');
    const done = await Promise.race([exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
    if (!done) {
      proc.kill('SIGKILL');
      await exited;
    }
  };
  return { proc, logs, ready, exited, logged, stop };
}

/**
 * Starts `breakline serve` on a free loopback port and resolves once it is
 * ready (its `breakline ready` line), or, given `until`, at the first log line
 * `until` accepts (its `url` must be known by then: the `listening` line has it).
 */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000, until?: (entry: LogEntry) => boolean): Promise<ServerProcess> {
  const server = spawnServer(env, undefined, until);
  const timer = Bun.sleep(timeoutMs).then(() => {
    throw new Error(`server did not listen within ${timeoutMs} ms: ${JSON.stringify(server.logs)}`);
  });
  try {
    const url = await Promise.race([server.ready, timer]);
    return { url, pid: server.proc.pid, logs: server.logs, stop: () => server.stop(), signal: (signal) => server.proc.kill(signal), exited: server.exited, logged: server.logged };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Runs a `breakline` subcommand to its end: exit code, stdout and stderr. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, 'src/index.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
