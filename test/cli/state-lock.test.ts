/**
 * The embedded database's lock across crashes (issue 28 item 2): a server
 * killed with SIGKILL and started again at once, 20 times, starts every time
 * — with the killed one left a zombie, as a supervisor that has not reaped it
 * yet (or a container's init that never does) leaves it; a lock file naming a
 * stranger's live pid never blocks; a live server still refuses a second one
 * (exit 75, the refusal naming it). Real processes (`bun run src/index.ts
 * serve`) on a temporary state directory.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { usingPostgres } from '../helpers/db';

const ENTRY = resolve(import.meta.dir, '../../src/index.ts');
const scratch = mkdtempSync(join(tmpdir(), 'breakline-lock-'));
/** The `sleep` parents holding killed servers as zombies, ended (and their zombies reaped by init) at the end, with the servers still alive. */
const parents: Bun.Subprocess[] = [];
const alive = new Set<number>();
afterAll(async () => {
  for (const pid of alive) process.kill(pid, 'SIGKILL');
  for (const parent of parents) parent.kill('SIGKILL');
  await Promise.all(parents.map((p) => p.exited));
  rmSync(scratch, { recursive: true, force: true });
});

const envFor = (stateDir: string) => ({ PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'info', SCAN_INTERVAL_SECONDS: '0', REPLAY_ON_BOOT: 'off', POOL_SIZE: '1' });

/** The warm-up's log line once the embedded database is open and migrated. */
const DATABASE_OPEN = 'warm-up: opening the database (migrations) done';
const LISTENING = 'breakline listening; warming up (ready at /readyz)';
const REFUSED = 'refusing to start a server';

type Outcome = { msg: string } | { refused: string };

interface Server {
  pid: number;
  /** The first of `messages` the server logs, or its refusal. */
  until(...messages: string[]): Promise<Outcome>;
}

/** Reads a process's stderr line by line, answering `until` with the first wanted log message or the refusal. */
function watch(stderr: ReadableStream<Uint8Array>): Server['until'] {
  const seen = new Set<string>();
  let refusal: string | undefined;
  const waiting: { messages: string[]; resolve: (outcome: Outcome) => void }[] = [];
  const settle = () => {
    for (const w of waiting.splice(0)) {
      const found = w.messages.find((m) => seen.has(m));
      if (found !== undefined) w.resolve({ msg: found });
      else if (refusal !== undefined) w.resolve({ refused: refusal });
      else waiting.push(w);
    }
  };
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of stderr) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith(REFUSED)) refusal = `${line}\n${buffered}`;
        try {
          seen.add(String((JSON.parse(line) as { msg?: unknown }).msg));
        } catch {
          // not a log line
        }
      }
      settle();
    }
  })();
  return (...messages) =>
    new Promise((resolve) => {
      waiting.push({ messages, resolve });
      settle();
    });
}

/**
 * `breakline serve` as the child of a process that never reaps it (`sh`
 * starts it in the background and becomes `sleep`): once killed it stays a
 * zombie, its pid taken, until the test ends.
 */
async function serveUnreaped(stateDir: string): Promise<Server> {
  const parent = Bun.spawn(['sh', '-c', '"$0" run "$1" serve & echo $!; exec sleep 600', process.execPath, ENTRY], { env: envFor(stateDir), stdout: 'pipe', stderr: 'pipe' });
  parents.push(parent);
  const until = watch(parent.stderr);
  const reader = parent.stdout.getReader();
  let text = '';
  while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
  const pid = Number(text.trim());
  alive.add(pid);
  return { pid, until };
}

// Its servers are spawned on the embedded defaults whatever DATABASE_URL says: once is enough.
describe.skipIf(usingPostgres)('the embedded database lock', () => {
  it('lets a server start again at once after each of 20 kill -9s (the killed one a zombie), and a live one still refuses a second (75)', async () => {
    const stateDir = join(scratch, 'crashes');
    // A first start makes the data directory (a first start killed half-way would test PGlite's unpacking, not the lock).
    let server = await serveUnreaped(stateDir);
    expect(await server.until(DATABASE_OPEN)).toEqual({ msg: DATABASE_OPEN });
    const outcomes: string[] = [];
    for (let round = 1; round <= 20; round++) {
      process.kill(server.pid, 'SIGKILL');
      alive.delete(server.pid);
      // The next one starts at once: the killed one is not reaped (nor, maybe, even gone yet).
      server = await serveUnreaped(stateDir);
      const reached = await server.until(LISTENING);
      outcomes.push('msg' in reached ? 'started' : reached.refused);
    }
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => 'started'));
    // The last one is alive: a second server is refused, naming it.
    const second = Bun.spawn([process.execPath, 'run', ENTRY, 'serve'], { env: envFor(stateDir), stdout: 'ignore', stderr: 'pipe' });
    const [code, stderr] = await Promise.all([second.exited, new Response(second.stderr).text()]);
    expect(code).toBe(75);
    expect(stderr).toContain(`${REFUSED}: a server at http://127.0.0.1:`);
    expect(stderr).toContain(`(pid ${server.pid},`);
  }, 300_000);

  it('empties the lock file when a server stops (the file itself stays)', async () => {
    const stateDir = join(scratch, 'stops');
    const server = Bun.spawn([process.execPath, 'run', ENTRY, 'serve'], { env: envFor(stateDir), stdout: 'ignore', stderr: 'pipe' });
    try {
      expect(await watch(server.stderr)(LISTENING)).toEqual({ msg: LISTENING });
      expect(JSON.parse(readFileSync(join(stateDir, 'database.lock'), 'utf8'))).toMatchObject({ pid: server.pid, holder: expect.stringMatching(/^a server at http:\/\/127\.0\.0\.1:\d+$/) });
      server.kill('SIGTERM');
      // 0 when the warm-up stops within the shutdown deadline (5 s); 1 when a busy machine keeps it
      // past it (cli/shutdown exits 1, the abandoned work logged); 137 when the loop is still blocked
      // then and the watchdog kills it (having emptied the file) — the lock is released every way.
      expect([0, 1, 137]).toContain(await server.exited);
      expect(readFileSync(join(stateDir, 'database.lock'), 'utf8')).toBe('');
    } finally {
      server.kill('SIGKILL');
    }
  }, 120_000);

  it('never lets a stranger’s live pid in the lock file block a start', async () => {
    const stateDir = join(scratch, 'stranger');
    mkdirSync(stateDir, { recursive: true });
    // A live process that is no breakline at all (the test runner itself), as a reused pid would be.
    writeFileSync(join(stateDir, 'database.lock'), JSON.stringify({ pid: process.pid, holder: 'a server at http://127.0.0.1:1', startedAt: '2026-01-01T00:00:00.000Z' }));
    const server = Bun.spawn([process.execPath, 'run', ENTRY, 'serve'], { env: envFor(stateDir), stdout: 'ignore', stderr: 'pipe' });
    try {
      expect(await watch(server.stderr)(LISTENING)).toEqual({ msg: LISTENING });
      expect(JSON.parse(readFileSync(join(stateDir, 'database.lock'), 'utf8'))).toMatchObject({ pid: server.pid });
    } finally {
      server.kill('SIGKILL');
      await server.exited;
    }
  }, 120_000);
});
