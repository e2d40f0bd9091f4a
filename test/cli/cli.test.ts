/**
 * The executable's command line, run as a user runs it (`bun run src/index.ts
 * …` in a child process): help and version, usage errors, and verify-ledger
 * refusing to open the embedded database while a server holds it. Every state
 * directory is a temporary one.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { COMMANDS } from '../../src/cli';
import pkg from '../../package.json' with { type: 'json' };

const ENTRY = resolve(import.meta.dir, '../../src/index.ts');
const scratch = mkdtempSync(join(tmpdir(), 'breakline-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function breakline(args: string[], env: Record<string, string> = {}) {
  const run = Bun.spawnSync([process.execPath, 'run', ENTRY, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env }, stdout: 'pipe', stderr: 'pipe' });
  return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

describe('breakline --help', () => {
  it.each([[['--help']], [['-h']], [['help']], [['verify-ledger', '--help']]])('%p prints the help: every command, the options, the variables; exit 0', (args: string[]) => {
    const { code, stdout } = breakline(args);
    expect(code).toBe(0);
    expect(stdout).toStartWith(`breakline ${pkg.version}`);
    expect(stdout).toContain('Usage: breakline [command] [options]');
    expect(Object.keys(COMMANDS).length).toBeGreaterThan(0);
    for (const [name, { summary }] of Object.entries(COMMANDS)) {
      expect(stdout).toContain(`  ${name} `);
      expect(stdout).toContain(summary);
    }
    for (const option of ['-h, --help', '-v, --version']) expect(stdout).toContain(option);
    for (const variable of ['PORT', 'HOST', 'STATE_DIR', 'DATABASE_URL', 'LOG_LEVEL']) expect(stdout).toContain(variable);
  });

  it.each([['--version'], ['-v']])('%p prints the version; exit 0', (flag) => {
    const { code, stdout } = breakline([flag]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(`breakline ${pkg.version}`);
  });

  it('names an unknown command and exits 64 (EX_USAGE) with the help', () => {
    const { code, stderr } = breakline(['serv']);
    expect(code).toBe(64);
    expect(stderr).toContain("unknown command 'serv'");
    expect(stderr).toContain('Commands:');
  });
});

describe('breakline verify-ledger on the embedded database', () => {
  it('refuses, naming the server, while a server is using it (exit 75)', async () => {
    const stateDir = join(scratch, 'served');
    const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
    const port = probe.port!;
    probe.stop(true);
    const server = Bun.spawn([process.execPath, 'run', ENTRY], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'silent', SCAN_INTERVAL_SECONDS: '0' },
      stdout: 'ignore',
      stderr: 'ignore',
    });
    try {
      let live = 0;
      for (let i = 0; i < 300 && live !== 200; i++) {
        live = await fetch(`http://127.0.0.1:${port}/livez`).then((r) => r.status, () => 0);
        await Bun.sleep(50);
      }
      expect(live).toBe(200);
      const { code, stderr } = breakline(['verify-ledger'], { STATE_DIR: stateDir });
      expect(code).toBe(75);
      expect(stderr).toContain('refusing to open the embedded database');
      expect(stderr).toContain(`a server at http://127.0.0.1:${port}`);
      expect(stderr).toContain(`pid ${server.pid}`);
      expect(stderr).toContain('/api/transparency/verify');
      const second = breakline([], { STATE_DIR: stateDir, PORT: '0' });
      expect(second.code).toBe(75);
      expect(second.stderr).toContain('refusing to start a server');
    } finally {
      server.kill('SIGTERM');
      await server.exited;
    }
  });

  it('ignores a lock left by a process that has died, and verifies', () => {
    const stateDir = join(scratch, 'stale');
    const dead = Bun.spawnSync(['true']).pid; // exited already
    Bun.spawnSync(['mkdir', '-p', stateDir]);
    writeFileSync(join(stateDir, 'database.lock'), JSON.stringify({ pid: dead, holder: 'a server at http://127.0.0.1:1', startedAt: '2026-01-01T00:00:00.000Z' }));
    const { code, stdout, stderr } = breakline(['verify-ledger'], { STATE_DIR: stateDir });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true });
  });
});
