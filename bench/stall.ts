/**
 * bench/stall: no single request may stall the server (issues 12, 27). For
 * every documented GET route (the served OpenAPI document's, each required
 * parameter filled, plus the `source=replay`, `asOf` and largest-page `limit`
 * variants), the worst
 * `GET /livez` round trip while the route is called cold, 5 callers at once,
 * probing every 50 ms — on a real server process on the embedded defaults
 * from an empty STATE_DIR (quotas raised so nothing is refused):
 *
 * - `during`: right after ready, while the first start's boot replay runs;
 * - `after`: once it is done, on the server started again (every cache cold).
 *
 * Before each route the server is left to settle (3 quick probes in a row),
 * so a route is charged only for what it did. A caller gives up after
 * `--route-timeout` seconds (60); the table says so (`>60`). Beside it, the
 * quotes of a `/api/stream` subscriber (AAPL, MSFT) over each phase: the
 * longest gap between two quotes of a symbol and the quotes' age on arrival
 * (one tick is SSE_QUOTE_INTERVAL_MS, 1 s; the synthetic market quotes during
 * its sessions only, so when it is shut now every process the bench starts
 * runs under libfaketime on a clock shifted into the latest full session:
 * bench/stall/clock; `--at ISO` picks the instant, `--at now` keeps the real
 * clock). And the write phase, first in each phase: a journal entry
 * created (`POST /api/journal/entries`) and a GraphQL query of the journal,
 * 5 times each one after the other: how long each waited (median, slowest)
 * while the replay writes its ledger.
 *
 * `--tree name=dir` (repeatable) measures other checkouts in the same run,
 * one after the other (each its own server and STATE_DIR), e.g. main exported
 * with `git archive main | tar -x -C /tmp/main`; the table puts the trees
 * side by side. `--smoke`: a few routes, `during` only, and no waiting for
 * the replay to end. `--only PATH` (repeatable) measures only routes whose
 * path starts so. `--seeded`: instead of both phases, the Transparency
 * and scorecard routes over the stall guard's seeded ledgers (a replay of
 * 5,000 signals, 1,500 live), cold on a restart without a boot replay.
 * Beside each worst `/livez`, the longest stretch the server's main thread
 * worked without yielding (the most CPU it spent while one probe waited: on
 * a busy machine a probe also waits for a core, which this does not count).
 * `--dump DIR`: each tree's bodies written there (stamps removed), to diff.
 * `--cpu-prof DIR`: each server writes a CPU profile into DIR on exit (bun
 * --cpu-prof) and, beside it, each stretch its main thread worked over 10 ms
 * between two turns of its event loop (bench/loop-stretches), and each
 * route's window (epoch ms) is printed to read them by.
 * The pieces are in bench/stall/ (options, clock, server, routes, writes,
 * quotes, floor, trees, report). Prints; asserts nothing. The load average is printed with
 * the table: on a shared machine every figure moves with it, and so, beside
 * each route's worst `/livez` and the quotes' ages, is the physical floor of
 * the same moment (bench/stall/floor: a bare Bun.serve process probed the
 * same way, ticking quotes on the same interval).
 *
 *   bun run bench/stall.ts --tree main=/tmp/main
 */
import { resolve } from 'node:path';
import { clock } from './stall/clock';
import { only, seeded, trees } from './stall/options';
import { printReport } from './stall/report';
import { benchSeededTree, benchTree, dropSeeded, type TreeResult } from './stall/trees';

export async function benchStall(): Promise<void> {
  if (clock.shiftMs) console.error(`bench/stall: the servers' clock is ${clock.label}`);
  const results: ({ name: string } & TreeResult)[] = [];
  try {
    for (const [name, root] of trees) results.push({ name, ...(await (seeded ? benchSeededTree(resolve(root), only, name) : benchTree(resolve(root), only))) });
  } finally {
    await dropSeeded(); // also when a server fails to start
  }
  printReport(results);
}

if (import.meta.main) await benchStall();
