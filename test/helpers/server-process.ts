/**
 * Breakline as a real process on a loopback port (`bun src/index.ts …`): for
 * the end-to-end tests that need several instances or the CLI. The
 * environment is exactly what the caller gives (plus PATH), never the test
 * runner's, so DATABASE_URL or REDIS_URL reach a process only when meant to.
 */
import type { Subprocess } from 'bun';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

export interface ServerProcess {
  url: string;
  /** The JSON log lines the server wrote (stderr). */
  logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** A `breakline serve` process as it runs: its logs as they come, when it is ready, when it exits. */
export interface SpawnedServer {
  proc: Subprocess<'ignore', 'ignore', 'pipe'>;
  /** The JSON log lines the server wrote (stderr); a line that is not JSON is kept as `{ msg: line }`. */
  logs: Record<string, unknown>[];
  /** Resolves to the URL once the server logs `breakline ready`; rejects when it exits first. */
  ready: Promise<string>;
  /** Resolves to the exit code once stderr is read to its end and the process has exited. */
  exited: Promise<number>;
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
export function spawnServer(env: Record<string, string>, binary?: string): SpawnedServer {
  const proc = Bun.spawn(binary ? [binary, 'serve'] : [process.execPath, 'src/index.ts', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...SERVER_DEFAULTS, ...env },
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const logs: Record<string, unknown>[] = [];
  const { promise: ready, resolve, reject } = Promise.withResolvers<string>();
  ready.catch(() => {}); // a caller that only waits for the exit need not handle it
  const exited = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    const take = (line: string) => {
      if (!line) return;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'breakline ready' && typeof entry.url === 'string') resolve(entry.url);
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
  return { proc, logs, ready, exited, stop };
}

/** Starts `breakline serve` on a free loopback port and resolves once it is ready (warm-up done). */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const server = spawnServer(env);
  const timer = Bun.sleep(timeoutMs).then(() => {
    throw new Error(`server did not listen within ${timeoutMs} ms: ${JSON.stringify(server.logs)}`);
  });
  try {
    const url = await Promise.race([server.ready, timer]);
    return { url, logs: server.logs, stop: () => server.stop() };
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
