/**
 * bench/first-minute: the first minute after a first start's ready (issue 27).
 * For each tree (`--tree name=dir`, repeatable, then this tree), `--runs N`
 * times interleaved (main, this, main, this…: each its own server from an
 * empty STATE_DIR, one at a time so neither loads the other), a `/api/stream`
 * subscriber (AAPL, MSFT) opened at ready and watched for `--seconds` (75):
 * the quotes' age on arrival (bench/stall/quotes: one on time is about a tick
 * old, `late` is more than two ticks old), and the server's main-thread
 * stretches over 10 ms between two turns of its loop (bench/loop-stretches,
 * CPU ms), each with the log lines that fell inside it, to see what ran, and
 * for each late quote what the main thread did between its tick and its
 * arrival (its CPU, or a turn that came late with little CPU: the thread
 * waited for a core). Beside the quotes, the physical floor over the same
 * seconds: a bare process ticking on the same interval, its quotes read the
 * same way (bench/stall/floor) — how late this machine let a tick be.
 * The market must be in session: like bench/stall, the servers run under
 * libfaketime on a session when it is shut now (`--at ISO` picks the instant;
 * bench/stall/clock). `--cpu-prof DIR` also keeps each server's CPU profile
 * there (bun --cpu-prof); without it the stretches go to a temp dir.
 * Prints; asserts nothing; the load average is printed with every run.
 *
 *   bun run bench/first-minute.ts --tree main=/tmp/main --runs 2
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// bench/stall/server adds the loop-stretches preload only with --cpu-prof; the stretches are this bench's point.
if (!process.argv.includes('--cpu-prof')) process.argv.push('--cpu-prof', mkdtempSync(join(tmpdir(), 'first-minute-')));
const { flag, trees, cpuProfDir } = await import('./stall/options');
const { clock } = await import('./stall/clock');
const { startServer } = await import('./stall/server');
const { watchQuotes, TICK_MS } = await import('./stall/quotes');
const { startFloor } = await import('./stall/floor');
const { printTable } = await import('./lib');

const seconds = Number(flag('--seconds')[0] ?? 75);
const runs = Number(flag('--runs')[0] ?? 1);

interface Stretch {
  from: number;
  to: number;
  cpuMs: number;
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');
const rows: Record<string, string | number>[] = [];
if (clock.shiftMs) console.error(`first-minute: the servers' clock is ${clock.label}`);
for (let run = 1; run <= runs; run++) {
  for (const [name, root] of trees) {
    const stateDir = mkdtempSync(join(tmpdir(), 'first-minute-state-'));
    const loadBefore = load();
    const server = await startServer(resolve(root), stateDir);
    const ready = clock.now();
    // The oldest quote, recorded here as well: QuotesMeasured gives the age only as text.
    const quotes = watchQuotes(server.base);
    // The physical floor over the same seconds: a bare process ticking on the same interval (bench/stall/floor).
    const floor = await startFloor();
    const floorQuotes = watchQuotes(floor.base);
    await Bun.sleep(seconds * 1000);
    const measured = quotes.stop();
    const floorMeasured = floorQuotes.stop();
    await floor.stop();
    const loadAtEnd = load();
    await server.stop();
    let all: Stretch[] = [];
    try {
      all = readFileSync(join(cpuProfDir!, `stretches-${server.pid}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Stretch);
    } catch {
      // no stretch over 10 ms at all
    }
    const stretches = all.filter((s) => s.to >= ready && s.from <= ready + seconds * 1000);
    const at = (l: Record<string, unknown>) => (typeof l.time === 'string' ? Date.parse(l.time) : Number.NaN);
    // The warm-up's last step before ready (the first daily scan, saved, then read as readers see it): its stretches apart.
    const step = (suffix: string) => at(server.logs.find((l) => String(l.msg).startsWith('warm-up: loading the latest daily scan') && String(l.msg).endsWith(suffix)) ?? {});
    const [stepFrom, stepTo] = [step(')'), step('done')];
    const warmUp = all.filter((s) => s.to >= stepFrom && s.from <= stepTo + 5).sort((a, b) => b.cpuMs - a.cpuMs);
    const longest = [...stretches].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 8);
    console.error(`\n${name} run ${run}: the longest stretches (CPU ms, +s after ready, wall ms) and the log lines inside each`);
    for (const s of longest) {
      const inside = server.logs.filter((l) => at(l) >= s.from && at(l) <= s.to + 5).map((l) => l.msg);
      console.error(`  ${s.cpuMs} ms at +${((s.from - ready) / 1000).toFixed(1)} s (${s.to - s.from} ms wall): ${inside.join(' | ') || '-'}`);
    }
    // Each late quote: what the main thread did between its tick (asked) and its arrival — the longest stretch and the CPU
    // in all of them over that wall time (a long wall with little CPU: the thread waited for a core, not for its own work).
    for (const q of measured.lateArrivals ?? []) {
      const asked = q.at - q.ageMs;
      const inside = stretches.filter((s) => s.to >= asked && s.from <= q.at);
      const cpu = inside.reduce((sum, s) => sum + s.cpuMs, 0);
      const worst = inside.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a), { from: 0, to: 0, cpuMs: 0 });
      const wait = inside.reduce((a, b) => (b.to - b.from > a.to - a.from ? b : a), { from: 0, to: 0, cpuMs: 0 });
      console.error(
        `  late quote ${(q.ageMs / 1000).toFixed(2)} s old, asked at +${((asked - ready) / 1000).toFixed(1)} s: main thread ${Math.round(cpu)} ms CPU in stretches over those ${Math.round(q.ageMs)} ms; ` +
          `the longest ${worst.cpuMs} ms CPU (${worst.to - worst.from} ms wall); the longest turn ${wait.to - wait.from} ms wall (${wait.cpuMs} ms CPU)`,
      );
    }
    const timeline = server.logs.filter((l) => at(l) >= ready - 1000 && at(l) <= ready + seconds * 1000);
    console.error(`  log: ${timeline.map((l) => `+${((at(l) - ready) / 1000).toFixed(1)} ${l.msg}`).join(' · ')}`);
    rows.push({
      tree: name,
      run,
      quotes: measured.quotes,
      'age s median / oldest': measured.ageS,
      [`late (> ${(2 * TICK_MS) / 1000} s)`]: measured.late,
      'floor: age s median / oldest, late': `${floorMeasured.ageS}, ${floorMeasured.late}`,
      'stretches > 50 ms': stretches.filter((s) => s.cpuMs > 50).length,
      '> 100 ms': stretches.filter((s) => s.cpuMs > 100).length,
      'longest ms': longest.slice(0, 3).map((s) => Math.round(s.cpuMs)).join(', ') || '-',
      'warm-up daily scan: longest ms': warmUp.slice(0, 3).map((s) => Math.round(s.cpuMs)).join(', ') || '-',
      'in stretches s': (stretches.reduce((sum, s) => sum + s.cpuMs, 0) / 1000).toFixed(1),
      'load before / end': `${loadBefore.split(' / ')[0]} / ${loadAtEnd.split(' / ')[0]}`,
    });
    rmSync(stateDir, { recursive: true, force: true });
  }
}
console.error(`first-minute: the stretches (and with --cpu-prof the profiles) are in ${cpuProfDir}`);
printTable(`first ${seconds} s after a first start's ready (stretches: main thread CPU between two loop turns, over 10 ms)`, rows);
