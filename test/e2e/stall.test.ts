/**
 * The stall guard (issue 27): no single request may freeze the server. On a
 * real server process over ledgers large enough for the costly reads to be
 * costly (a replay of 5,000 signals, 1,500 live ones: test/helpers/ledger-seed),
 * each costly route is called cold — on a server started for it, five
 * concurrent callers — while a probe sends `GET /livez` every 50 ms, and no
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

/** The costly GET routes that hold the guard, each as a cold caller would ask it. */
const COSTLY = [
  '/api/transparency/verify',
  '/api/universe/scan',
  '/api/breakouts?asOf=2026-06-01',
];

/**
 * The costly routes that do not hold it yet (issue 27 open): the server's main thread still works
 * 110–1,400 ms in one stretch for each (s25-stall's last run, load 30: scorecard?source=replay 140–160 ms,
 * monthly?source=replay 130–250 ms, the replay ledger page 110 ms, universe/scan and breakouts?asOf
 * 1.1–1.4 s; ledger.csv 130 ms at its first probe, load 5). Each joins COSTLY once its slices are off the loop;
 * `bun test --todo` runs them.
 */
const NOT_YET = [
  '/api/transparency/ledger.csv',
  '/api/scorecard?source=replay',
  '/api/transparency/monthly?month=2026-03&source=replay',
  '/api/transparency/ledger?source=replay&offset=4000&limit=500',
  '/api/scorecard',
  '/api/transparency/monthly?month=2026-03',
];

/** How long a start may take to be ready: a first start scans the universe (a minute at load 30 on 2 cores). */
const READY_MS = 240_000;

const ENV = { REPLAY_ON_BOOT: 'off', SCAN_INTERVAL_SECONDS: '0', POOL_SIZE: '2', RATE_LIMIT_QUOTA: '100000', RATE_LIMIT_COSTLY_QUOTA: '100000' };

let stateDir: string;
beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'breakline-stall-'));
  if (usingPostgres) return;
  await seedLedgers(stateDir, { signals: 5_000, liveSignals: 1_500 });
  // A first start persists the daily scan, so each start below loads it instead of scanning before it is ready.
  const first = await startServer({ ...ENV, STATE_DIR: stateDir }, READY_MS);
  await first.stop();
}, 600_000);
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

// Its servers are spawned on the embedded defaults whatever DATABASE_URL says: once is enough.
describe.skipIf(usingPostgres)('no request stalls the server', () => {
  for (const path of [...COSTLY, ...NOT_YET]) {
    (NOT_YET.includes(path) ? it.todo : it)(`keeps every /livez probe under 100 ms while ${path} is called cold, 5 at once`, async () => {
      const server = await startServer({ ...ENV, STATE_DIR: stateDir }, READY_MS);
      try {
        const report = await probeWhile(server.url, () => Promise.all(Array.from({ length: 5 }, () => fetch(`${server.url}${path}`).then(async (r) => (await r.arrayBuffer(), r.status)))), { pid: server.pid });
        expect(report.result).toEqual([200, 200, 200, 200, 200]);
        expect(report.late).toEqual([]);
      } finally {
        await server.stop();
      }
    }, 600_000);
  }
});
