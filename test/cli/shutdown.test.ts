/**
 * The stop sequence's hard deadline (cli/shutdown), in a child process of its
 * own (it ends the process): a step that never ends is abandoned at the
 * deadline with exit code 1 and named in the log; an event loop blocked past
 * the deadline is ended by the watchdog thread, which empties the state
 * lock's file first (the release cannot run); a second signal ends the
 * process at once; and readiness says `stopping` from the first moment.
 */
import { describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readiness, WarmUp } from '../../src/jobs/health';

const ROOT = join(import.meta.dir, '..', '..');

/** Runs `body` after a Shutdown named `shutdown` with deadline `deadlineMs` has begun; its exit code, signal and log lines. */
async function run(body: string, deadlineMs: number, clearedOnKill?: string) {
  const script = `
    import { openSync } from 'node:fs';
    import { Shutdown } from './src/cli/shutdown';
    import { WarmUp } from './src/jobs/health';
    import { createLogger } from './src/log';
    const log = createLogger('info');
    const clearedOnKill = ${clearedOnKill === undefined ? '[]' : `[openSync(${JSON.stringify(clearedOnKill)}, 'r+')]`};
    const shutdown = new Shutdown({ log, warmUp: new WarmUp(), deadlineMs: ${deadlineMs}, release: () => log.info('released'), clearedOnKill });
    shutdown.begin('SIGTERM');
    ${body}
  `;
  const proc = Bun.spawn([process.execPath, '-e', script], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, stdout: 'ignore', stderr: 'pipe' });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  const lines = stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { msg: line };
      }
    });
  return { code, signal: proc.signalCode, lines };
}

describe('the shutdown deadline', () => {
  it('abandons a step that does not end, naming it, releases the lock and exits 1', async () => {
    const { code, lines } = await run(`void shutdown.step('a scan that never ends', () => new Promise(() => {}));`, 300);
    expect(code).toBe(1);
    const deadline = lines.find((l) => l.msg === 'shutting down: deadline reached; exiting with work abandoned');
    expect(deadline).toBeDefined();
    expect(String((deadline!.abandoned as string[])[0])).toStartWith('a scan that never ends (running ');
    expect(lines.some((l) => l.msg === 'released')).toBe(true);
  }, 30_000);

  it('kills a process whose event loop is blocked past the deadline (the watchdog thread), emptying the lock file first', async () => {
    const lock = join(mkdtempSync(join(tmpdir(), 'breakline-watchdog-')), 'database.lock');
    writeFileSync(lock, JSON.stringify({ pid: 1, holder: 'a server at http://127.0.0.1:1' }));
    // Blocked from the moment the stop begins: the deadline timer never gets to run, nor the release.
    const { code, signal, lines } = await run(`const until = Date.now() + 20_000; while (Date.now() < until) {}`, 300, lock);
    expect({ code, signal }).toEqual({ code: 128 + 9, signal: 'SIGKILL' });
    expect(lines.some((l) => l.msg === 'shutting down: the event loop did not exit by the deadline; killing the process')).toBe(true);
    expect(lines.some((l) => l.msg === 'released')).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe('');
    rmSync(dirname(lock), { recursive: true });
  }, 30_000);

  it('ends the process at once on a second signal, naming what was running', async () => {
    const { code, lines } = await run(`void shutdown.step('draining', () => Bun.sleep(60_000)); await Bun.sleep(50); shutdown.begin('SIGINT');`, 60_000);
    expect(code).toBe(1);
    expect(lines.find((l) => l.msg === 'shutting down: a second signal; exiting now')).toMatchObject({ signal: 'SIGINT', abandoned: ['draining'] });
  }, 30_000);

  it('exits 0 through steps that end, each logged with its time', async () => {
    const { code, lines } = await run(`await shutdown.step('closing', () => Bun.sleep(10)); await shutdown.step('cut', () => new Promise(() => {}), 20); shutdown.exit(0);`, 5_000);
    expect(code).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down: closing', 'shutting down: closing done', 'shutting down: cut', 'shutting down: cut: cut short', 'shut down', 'released']));
  }, 30_000);
});

describe('readiness while stopping', () => {
  it('is false from the moment a stop begins, whatever else holds', () => {
    const warmUp = new WarmUp();
    warmUp.migrated = true;
    warmUp.firstScanLoaded = true;
    const round = { checks: { db: 'ok', dataAdapter: 'ok', env: 'ok', kv: 'ok', pool: 'ok' }, details: {}, checkedAt: Date.now() } as Parameters<typeof readiness>[1];
    expect(readiness(warmUp, round).ready).toBe(true);
    warmUp.stopping = true;
    expect(readiness(warmUp, round)).toEqual({ ready: false, checks: { database: true, migrations: true, pool: true, firstScan: true } });
  });
});
