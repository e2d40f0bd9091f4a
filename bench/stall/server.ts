/**
 * @module bench/stall/server
 * A server process of one tree (`breakline serve` on the embedded defaults,
 * quotas raised so nothing is refused), its log lines as they come, and a
 * session token minted by the tree's own CLI — both on the bench's clock.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../lib';
import { clock } from './clock';
import { cpuProfDir, cpuProfIntervalUs, ROOT } from './options';

export interface Server {
  base: string;
  pid: number;
  logs: Record<string, unknown>[];
  /** SIGTERM, SIGKILL after 60 s; resolves to how long it took to exit (ms). */
  stop(): Promise<number>;
}

/** `breakline serve` from `root` on the embedded defaults over `stateDir`, ready. */
export async function startServer(root: string, stateDir: string, extraEnv: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  // bench/loop-stretches appends to DIR from the start; bun creates it only to write the profile on exit.
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  const profile = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, `--cpu-prof-interval=${cpuProfIntervalUs}`, `--preload=${join(ROOT, 'bench/loop-stretches.ts')}`] : [];
  const proc = Bun.spawn([process.execPath, ...profile, 'run', join(root, 'src/index.ts'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      STATE_DIR: stateDir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_QUOTA: '1000000000',
      RATE_LIMIT_COSTLY_QUOTA: '1000000000',
      EXPLAIN_RATE_LIMIT_QUOTA: '1000000000',
      ...(cpuProfDir ? { BENCH_STALL_STRETCHES_DIR: cpuProfDir } : {}),
      ...clock.env,
      ...extraEnv,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const logs: Record<string, unknown>[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of proc.stderr) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.includes('"msg":"request"')) continue;
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          logs.push({ msg: line });
        }
      }
    }
  })();
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server from ${root} exited with ${proc.exitCode}; its last log lines:\n${logs.slice(-5).map((l) => JSON.stringify(l)).join('\n')}`);
    if (await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false)) break;
    await Bun.sleep(250);
  }
  return {
    base,
    pid: proc.pid,
    logs,
    async stop() {
      const began = performance.now();
      proc.kill('SIGTERM');
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(60_000).then(() => false)]);
      if (!exited) proc.kill('SIGKILL');
      await proc.exited;
      return performance.now() - began;
    },
  };
}

/** A session token for the routes that need one (`breakline token mint`, the tree's own, on the servers' clock). */
export async function sessionToken(root: string, stateDir: string): Promise<string> {
  const proc = Bun.spawn([process.execPath, 'run', join(root, 'src/index.ts'), 'token', 'mint', '--user', 'bench', '--tier', 'enterprise'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', STATE_DIR: stateDir, LOG_LEVEL: 'error', ...clock.env },
    stdout: 'pipe',
    stderr: 'ignore',
  });
  return (await new Response(proc.stdout).text()).trim();
}

export const logged = (server: Server, msg: string) => server.logs.some((l) => l.msg === msg);

/** Waits until the server logs `msg`; false after `timeoutMs`. */
export async function waitFor(server: Server, msg: string, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await Bun.sleep(500)) if (logged(server, msg)) return true;
  return false;
}
