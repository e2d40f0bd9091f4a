/**
 * Metrics at boot: what making the Prometheus metrics (src/metrics.ts) costs
 * a starting server, and its first scrape. Each run is a fresh `bun` process
 * that imports the tree's src/metrics.ts and makes `new Metrics()` (what the
 * composition root does at boot: wall time and the process's CPU time), then
 * scrapes once (`text()`) and says whether the scrape holds the process
 * metrics (prom-client's default metrics). Prints medians.
 *
 * `--tree name=dir` (repeatable) measures other checkouts in the same run, as
 * bench/boot does (e.g. main: `git -C /work/main archive main | tar -x -C
 * /tmp/main`; its node_modules: this tree's, through a symlink); the trees take
 * turns run by run. The load average is printed with each row.
 *
 *   bun run bench/metrics.ts [--smoke] [--runs N] [--tree before=/tmp/main]
 *   bun run bench/index.ts metrics [--smoke]   (this tree alone: index takes no flag values)
 */
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { printTable, smoke } from './lib';

const ROOT = resolve(import.meta.dir, '..');

interface Run {
  /** Import of src/metrics.ts (prom-client with it) and `new Metrics()`. */
  bootMs: number;
  bootCpuMs: number;
  firstScrapeMs: number;
  processMetrics: boolean;
}

/** One fresh process's figures for the tree at `root`. */
function once(root: string): Run {
  const script = `
    const cpu = process.cpuUsage(); const t0 = performance.now();
    const { Metrics } = await import(${JSON.stringify(join(root, 'src/metrics.ts'))});
    const metrics = new Metrics();
    const t1 = performance.now(); const used = process.cpuUsage(cpu);
    const text = await metrics.text();
    const t2 = performance.now();
    console.log(JSON.stringify({ bootMs: t1 - t0, bootCpuMs: (used.user + used.system) / 1000, firstScrapeMs: t2 - t1, processMetrics: text.includes('# TYPE breakline_process_cpu_user_seconds_total counter') }));`;
  const run = Bun.spawnSync([process.execPath, '-e', script], { cwd: root, stderr: 'pipe' });
  if (run.exitCode !== 0) throw new Error(`bench/metrics: ${root}: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as Run;
}

const flag = (name: string) => process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

export async function benchMetrics(): Promise<void> {
  const runs = smoke ? 3 : Number(flag('--runs')[0] ?? 21);
  const trees: [string, string][] = [...flag('--tree').map((t) => t.split('=') as [string, string]), ['this tree', ROOT]];
  for (const [, root] of trees) if (!existsSync(join(root, 'node_modules'))) symlinkSync(resolve(ROOT, 'node_modules'), join(root, 'node_modules'));
  const measured = trees.map(() => ({ runs: [] as Run[], load: [] as number[] }));
  for (let i = 0; i < runs; i++) {
    trees.forEach(([, root], t) => {
      measured[t]!.load.push(loadAverage());
      measured[t]!.runs.push(once(root));
    });
  }
  printTable(
    `Metrics at boot: import src/metrics.ts + new Metrics(), then the first scrape (fresh process each, median of ${runs})`,
    trees.map(([name], t) => {
      const { runs: rs, load } = measured[t]!;
      return {
        tree: name,
        'boot ms': median(rs.map((r) => r.bootMs)),
        'boot CPU ms': median(rs.map((r) => r.bootCpuMs)),
        'first scrape ms': median(rs.map((r) => r.firstScrapeMs)),
        'process metrics in first scrape': rs.every((r) => r.processMetrics) ? 'yes' : 'NO',
        'load avg': median(load),
      };
    }),
  );
}

if (import.meta.main) await benchMetrics();
