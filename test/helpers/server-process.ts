/**
 * Breakline as a real process on a loopback port (`bun src/index.ts …`): for
 * the end-to-end tests that need several instances or the CLI. The
 * environment is exactly what the caller gives (plus PATH), never the test
 * runner's, so DATABASE_URL or REDIS_URL reach a process only when meant to.
 */
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

export interface ServerProcess {
  url: string;
  /** The JSON log lines the server wrote (stderr). */
  logs: Record<string, unknown>[];
  stop(): Promise<void>;
  /** Sends a signal to the process. */
  signal(signal: NodeJS.Signals): void;
  /** The exit code, once the process has exited. */
  exited: Promise<number>;
  /** Resolves with the first log line (seen already or to come) that `match` accepts. */
  logged(match: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/**
 * Starts `breakline serve` on a free loopback port and resolves once it is
 * ready (its `breakline ready` line), or, given `until`, at the first log line
 * `until` accepts (its `url` must be known by then: the `listening` line has it).
 */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000, until?: (entry: Record<string, unknown>) => boolean): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, 'src/index.ts', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SCAN_INTERVAL_SECONDS: '0', POOL_SIZE: '1', LOG_LEVEL: 'info', ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const logs: Record<string, unknown>[] = [];
  const watchers = new Set<(entry: Record<string, unknown>) => void>();
  const logged = (match: (entry: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = logs.find(match);
      if (seen) return resolve(seen);
      const watch = (entry: Record<string, unknown>) => match(entry) && (watchers.delete(watch), resolve(entry));
      watchers.add(watch);
    });
  let url: string | undefined;
  const stop = async () => {
    proc.kill('SIGTERM');
    const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
    if (!exited) proc.kill('SIGKILL');
  };
  // Read stderr to its end (a full pipe would stall the server); resolve once it says it is ready (warm-up done).
  const { promise: listening, resolve, reject } = Promise.withResolvers<string>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of proc.stderr) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          for (const watch of [...watchers]) watch(entry);
          if (typeof entry.url === 'string') url ??= entry.url;
          if (until ? until(entry) : entry.msg === 'breakline ready' && typeof entry.url === 'string') resolve(url ?? '');
        } catch {
          logs.push({ msg: line });
        }
      }
    }
    reject(new Error(`server exited before listening (code ${await proc.exited}): ${JSON.stringify(logs)}`));
  })();
  const timer = Bun.sleep(timeoutMs).then(() => {
    throw new Error(`server did not listen within ${timeoutMs} ms: ${JSON.stringify(logs)}`);
  });
  try {
    const listeningAt = await Promise.race([listening, timer]);
    return { url: listeningAt, logs, stop, signal: (signal) => proc.kill(signal), exited: proc.exited, logged };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs a `breakline` subcommand to its end: exit code, stdout and stderr. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, 'src/index.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
