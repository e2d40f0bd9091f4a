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
}

/** Starts `breakline serve` on a free loopback port and resolves once it listens. */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, 'src/index.ts', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SCAN_INTERVAL_SECONDS: '0', POOL_SIZE: '1', LOG_LEVEL: 'info', ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const logs: Record<string, unknown>[] = [];
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
          if (entry.msg === 'breakline ready' && typeof entry.url === 'string') resolve(entry.url);
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
    const url = await Promise.race([listening, timer]);
    return { url, logs, stop };
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
