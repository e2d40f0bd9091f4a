/**
 * @module bench/stall/trees
 * One tree's run: both phases on a first start (`during` its boot replay,
 * `after` it on a restart, every cache cold; `--smoke`: a few routes, `during`
 * only), or `--seeded`: the stall guard's ledgers cold on a restart. Each on
 * its own server and STATE_DIR.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedLedgers } from '../../test/helpers/ledger-seed';
import { clock } from './clock';
import { startFloor, type Floor } from './floor';
import { ROOT, smoke } from './options';
import { NO_QUOTES, watchQuotes, type QuotesMeasured } from './quotes';
import { documentedRoutes, measureRoutes, type Measured, type Route } from './routes';
import { logged, sessionToken, startServer, waitFor } from './server';
import { measureWrites, type WriteMeasured } from './writes';

export interface TreeResult {
  routes: Route[];
  during: Map<string, Measured>;
  after: Map<string, Measured>;
  writesDuring: Map<string, WriteMeasured>;
  /** Whether the boot replay still ran when the writes began. */
  writesReplaying: boolean;
  writesAfter: Map<string, WriteMeasured>;
  quotesDuring: QuotesMeasured;
  quotesAfter: QuotesMeasured;
  /** The bare process's quotes over the same phases (bench/stall/floor): what this machine allowed. */
  floorQuotesDuring: QuotesMeasured;
  floorQuotesAfter: QuotesMeasured;
  stopDuringMs: number | null;
  stopAfterMs: number | null;
  loads: number[];
}

/** The routes `--smoke` calls. */
const SMOKE_ROUTES = ['/api/health', '/api/bars', '/api/scorecard', '/api/transparency/verify'];
/** `--seeded`: the routes whose cost grows with the ledgers, and the signals' history (the stall guard's: test/e2e/stall). */
const SEEDED_ROUTES = ['/api/transparency', '/api/scorecard', '/api/breakouts/history'];

const linkModules = (root: string) => {
  if (!existsSync(join(root, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
};

/** Quotes of the server and of the floor's bare process over one phase, started and stopped together. */
function watchBoth(server: { base: string }, floor: Floor) {
  const serverQuotes = watchQuotes(server.base);
  const floorQuotes = watchQuotes(floor.base);
  return { stop: () => ({ server: serverQuotes.stop(), floor: floorQuotes.stop() }) };
}

/** One tree: both phases, and how long a SIGTERM took during the replay and after it. */
export async function benchTree(root: string, only: string[]): Promise<TreeResult> {
  linkModules(root);
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-bench-stall-'));
  const floor = await startFloor();
  try {
    const loads: number[] = [];
    let server = await startServer(root, stateDir);
    const token = await sessionToken(root, stateDir);
    // A month of the boot replay's range (the last two years): a year before the servers' now.
    const month = new Date(clock.now() - 365 * 86_400_000).toISOString().slice(0, 7);
    let routes = await documentedRoutes(server.base, month);
    if (only.length) routes = routes.filter((r) => only.some((o) => r.path.startsWith(o)));
    else if (smoke) routes = routes.filter((r) => SMOKE_ROUTES.some((o) => r.path.startsWith(o)));
    await waitFor(server, 'replay started', 120_000);
    loads.push(loadavg()[0]!);
    let quotes = watchBoth(server, floor);
    // The writes first: they are what a user does on a first start, while the replay surely runs.
    const writesReplaying = !logged(server, 'boot replay finished');
    const writesDuring = await measureWrites(server, token);
    const during = await measureRoutes(server, routes, token, () => !logged(server, 'boot replay finished'), undefined, floor);
    const { server: quotesDuring, floor: floorQuotesDuring } = quotes.stop();
    loads.push(loadavg()[0]!);
    const stopDuringMs = logged(server, 'boot replay finished') ? null : await server.stop();
    let after = new Map<string, Measured>();
    let writesAfter = new Map<string, WriteMeasured>();
    let quotesAfter = NO_QUOTES;
    let floorQuotesAfter = NO_QUOTES;
    let stopAfterMs: number | null = null;
    if (!smoke) {
      if (stopDuringMs !== null) server = await startServer(root, stateDir); // resumes the replay
      const finished = await waitFor(server, 'boot replay finished', 30 * 60_000);
      if (!finished) console.error(`${root}: the boot replay did not finish within 30 minutes`);
      await server.stop();
      server = await startServer(root, stateDir);
      quotes = watchBoth(server, floor);
      writesAfter = await measureWrites(server, token);
      after = await measureRoutes(server, routes, token, () => false, undefined, floor);
      ({ server: quotesAfter, floor: floorQuotesAfter } = quotes.stop());
      loads.push(loadavg()[0]!);
      stopAfterMs = await server.stop();
    } else if (stopDuringMs === null) await server.stop();
    return { routes, during, after, writesDuring, writesReplaying, writesAfter, quotesDuring, quotesAfter, floorQuotesDuring, floorQuotesAfter, stopDuringMs, stopAfterMs, loads };
  } finally {
    await floor.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * `--seeded`: one tree over the stall guard's ledgers (test/helpers/ledger-seed:
 * a finished replay of 5,000 signals and 1,500 live ones, written with this
 * tree's code, so the trees must share their migrations), started once to
 * keep its daily scan (by the first tree; the state then copied for each), then
 * measured cold on the next start (no boot replay): the `after` phase only.
 */
let seededDir: Promise<string> | undefined;

export async function benchSeededTree(root: string, only: string[], tree: string): Promise<TreeResult> {
  linkModules(root);
  const env = { REPLAY_ON_BOOT: 'off', SCAN_INTERVAL_SECONDS: '0' };
  // Seeded and started once (by the first tree), then copied for every tree: the same records, hashes and times
  // (the first start appends its daily scan's signals to the live ledger), so their answers can be compared.
  seededDir ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'breakline-bench-stall-seed-'));
    await seedLedgers(dir, { signals: 5_000, liveSignals: 1_500 });
    await (await startServer(root, dir, env)).stop();
    return dir;
  })();
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-bench-stall-'));
  const floor = await startFloor();
  try {
    cpSync(await seededDir, stateDir, { recursive: true });
    const server = await startServer(root, stateDir, env);
    const token = await sessionToken(root, stateDir);
    const routes = (await documentedRoutes(server.base, '2026-03')).filter((r) => (only.length ? only : SEEDED_ROUTES).some((o) => r.path.startsWith(o)));
    const quotes = watchBoth(server, floor);
    const writesAfter = await measureWrites(server, token);
    const after = await measureRoutes(server, routes, token, () => false, tree, floor);
    const { server: quotesAfter, floor: floorQuotesAfter } = quotes.stop();
    const loads = [loadavg()[0]!];
    const stopAfterMs = await server.stop();
    return { routes, during: new Map(), after, writesDuring: new Map(), writesReplaying: false, writesAfter, quotesDuring: NO_QUOTES, quotesAfter, floorQuotesDuring: NO_QUOTES, floorQuotesAfter, stopDuringMs: null, stopAfterMs, loads };
  } finally {
    await floor.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Removes the seeded state every tree copied (`--seeded`). */
export async function dropSeeded(): Promise<void> {
  if (seededDir) rmSync(await seededDir, { recursive: true, force: true });
}
