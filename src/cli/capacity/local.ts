/**
 * @module cli/capacity/local
 * The parent side of the processes in cli/capacity/roles: the local instance
 * a run loads when it is given no `--url` (embedded PGlite in a temporary
 * STATE_DIR removed afterwards, the synthetic market, on a free loopback
 * port), and the bare handler of the smoke. Each is bounded in time: one that
 * is not up within `timeoutMs` is killed and the run fails naming it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linesOf, nextJson } from './stream-fleet';
import { selfCommand } from './self';

export interface RoleProcess {
  url: string;
  pid: number;
  /** Sends one line to its stdin. */
  send(line: string): void;
  stop(): Promise<void>;
}

/**
 * The settings a local instance runs with besides the embedded defaults:
 * every quota out of the way (the whole load comes from one address),
 * room for the profile's streams from this one address, the quote tick of the
 * profile. `extra` (`--env`) goes over them.
 */
export function instanceEnv(options: { sseClients: number; quoteIntervalMs: number; extra: Record<string, string> }): Record<string, string> {
  const unlimited = '1000000000';
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_QUOTA: unlimited,
    RATE_LIMIT_QUOTA_FREE: unlimited,
    RATE_LIMIT_QUOTA_PRO: unlimited,
    RATE_LIMIT_QUOTA_ENTERPRISE: unlimited,
    RATE_LIMIT_COSTLY_QUOTA: unlimited,
    SSE_MAX_CONNECTIONS_PER_CLIENT: String(Math.max(32, options.sseClients + 100)),
    SSE_QUOTE_INTERVAL_MS: String(options.quoteIntervalMs),
    ...options.extra,
  };
}

/**
 * Starts `breakline capacity --role <role> [arg]` with exactly `env` and
 * resolves once it says where it listens; with `cpus`, on this machine's
 * first `cpus` cores only (taskset(1), util-linux: the sweep's cores law).
 */
export async function startRole(role: 'instance' | 'bare', env: Record<string, string>, arg?: string, timeoutMs = 180_000, cpus?: number): Promise<RoleProcess> {
  const stateDir = role === 'instance' ? mkdtempSync(join(tmpdir(), 'breakline-capacity-')) : undefined;
  const pinned = cpus === undefined ? [] : ['taskset', '-c', `0-${cpus - 1}`];
  const proc = Bun.spawn([...pinned, ...selfCommand(), 'capacity', '--role', role, ...(arg === undefined ? [] : [arg])], {
    env: stateDir ? { ...env, STATE_DIR: stateDir } : env,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  // The instance logs to stderr: read to the end (a full pipe would stall it), the last lines kept for a failure's message.
  const tail: string[] = [];
  void (async () => {
    for await (const line of linesOf(proc.stderr)) {
      tail.push(line);
      if (tail.length > 20) tail.shift();
    }
  })();
  const stop = async () => {
    try {
      proc.stdin.write('exit\n');
      proc.stdin.flush();
    } catch {
      // gone already
    }
    const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
    if (!exited) proc.kill('SIGKILL');
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    const ready = await nextJson<{ url: string; pid: number }>({ lines: linesOf(proc.stdout)[Symbol.asyncIterator]() }, timeoutMs);
    return {
      ...ready,
      send(line) {
        proc.stdin.write(`${line}\n`);
        proc.stdin.flush();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`the local ${role} did not start: ${(error as Error).message}${tail.length ? `\n${tail.join('\n')}` : ''}`);
  }
}
