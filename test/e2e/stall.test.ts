/**
 * The stall guard (issue 27): no single request may freeze the server. On a
 * real server process over ledgers large enough for the costly reads to be
 * costly (a replay of 5,000 signals, 1,500 live ones: test/helpers/ledger-seed),
 * each costly route is called cold — one after the other on one server
 * started for them (COSTLY's order), five concurrent callers — while a probe
 * sends `GET /livez` every 50 ms, and no
 * probe may wait more than 100 ms while the server's main thread works
 * (test/helpers/livez-probe: on a loaded machine every process also waits for
 * a core, which is the machine's doing, not the server's). The assertion is on the late probes (what
 * every other client of the server met), never on how long the route took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedLedgers } from '../helpers/ledger-seed';
import { probeWhile } from '../helpers/livez-probe';
import { startServer } from '../helpers/server-process';
import { usingPostgres } from '../helpers/db';

/**
 * The costly GET routes that hold the guard, each as a cold caller would ask it, in the order they are asked of
 * one server: each route's own figures are cold when it is asked, and each shared load is cold at its first
 * reader — the live ledger's facts (the CSV), the replay's trade book and its universe's bars (the replay
 * scorecard), the live ledger's book and the 500 series of today's universe (the live scorecard).
 */
const COSTLY = [
  '/api/transparency/verify',
  '/api/transparency/ledger.csv',
  '/api/scorecard?source=replay',
  '/api/transparency/ledger?source=replay&offset=4000&limit=500',
  '/api/transparency/monthly?month=2026-03&source=replay',
  '/api/scorecard',
  '/api/transparency/monthly?month=2026-03',
  '/api/universe/scan',
  '/api/breakouts?asOf=2026-06-01',
  // Its largest page as JSON: the response check and mirror over 200 signals per caller held a probe 868 ms at load 13.
  '/api/breakouts/history?limit=200',
  // The first GraphQL request: graphql-yoga and the schema are built during the warm-up, not by it (2–3.5 s at load 30 before).
  `/api/graphql?query=${encodeURIComponent('{ __typename }')}`,
];

/**
 * The costly routes that do not hold it yet: none now (universe/scan and breakouts?asOf were the last, 1.1–1.4 s
 * in one stretch before their bars were drawn in worker threads and read in slices). A route that regresses goes
 * here until it is off the loop again; `bun test --todo` runs them.
 */
const NOT_YET: string[] = [];

/** How long a start may take to be ready: a first start scans the universe (a minute at load 30 on 2 cores). */
const READY_MS = 240_000;

const ENV = { REPLAY_ON_BOOT: 'off', SCAN_INTERVAL_SECONDS: '0', POOL_SIZE: '2', RATE_LIMIT_QUOTA: '100000', RATE_LIMIT_COSTLY_QUOTA: '100000' };

let stateDir: string;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'breakline-stall-'));
  if (usingPostgres) return;
  await seedLedgers(stateDir, { signals: 5_000, liveSignals: 1_500 });
  // A first start persists the daily scan, so the start below loads it instead of scanning before it is ready.
  const first = await startServer({ ...ENV, STATE_DIR: stateDir }, READY_MS);
  await first.stop();
  server = await startServer({ ...ENV, STATE_DIR: stateDir }, READY_MS);
}, 600_000);
afterAll(async () => {
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** Until `/livez` answers in under 50 ms three times in a row: the previous route's work is done, and is not charged to the next. */
async function settle(url: string): Promise<void> {
  for (let quick = 0, tries = 0; quick < 3 && tries < 600; tries++) {
    const began = performance.now();
    await (await fetch(`${url}/livez`)).arrayBuffer();
    quick = performance.now() - began < 50 ? quick + 1 : 0;
    await Bun.sleep(50);
  }
}

// Its server is spawned on the embedded defaults whatever DATABASE_URL says: once is enough.
describe.skipIf(usingPostgres)('no request stalls the server', () => {
  for (const path of [...COSTLY, ...NOT_YET]) {
    (NOT_YET.includes(path) ? it.todo : it)(`keeps every /livez probe under 100 ms while ${path} is called cold, 5 at once`, async () => {
      const { url, pid } = server!;
      await settle(url);
      const report = await probeWhile(url, () => Promise.all(Array.from({ length: 5 }, () => fetch(`${url}${path}`).then(async (r) => (await r.arrayBuffer(), r.status)))), { pid });
      expect(report.result).toEqual([200, 200, 200, 200, 200]);
      expect(report.late).toEqual([]);
    }, 600_000);
  }
});
