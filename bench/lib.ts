/**
 * Shared pieces of the benchmarks: a wrk runner that parses its summary, and a
 * table printer. Benchmarks print; they never assert on time.
 */
import { spawnSync } from 'node:child_process';

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export const smoke = process.argv.includes('--smoke');

export function haveWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const toMs = (value: string) => {
  const n = parseFloat(value);
  if (value.endsWith('us')) return n / 1000;
  if (value.endsWith('ms')) return n;
  if (value.endsWith('s')) return n * 1000;
  return n;
};

/** Runs wrk against a loopback URL (bounded in time) and parses its latency distribution. */
export async function wrk(url: string, opts: { seconds: number; connections: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const args = ['-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const proc = Bun.spawn(['wrk', ...args], { stdout: 'pipe', stderr: 'pipe' });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  const p50 = /\s50%\s+([\d.]+\w+)/.exec(out)?.[1];
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(out)?.[1];
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1];
  if (!rps || !p50 || !p99) throw new Error(`could not parse wrk output:\n${out}`);
  return { requestsPerSec: parseFloat(rps), p50Ms: toMs(p50), p99Ms: toMs(p99), non2xx: non2xx ? parseInt(non2xx, 10) : 0 };
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c] ?? '').length)));
  const line = (values: string[]) => '| ' + values.map((v, i) => v.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(cols));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(cols.map((c) => cell(r[c] ?? ''))));
}
