/**
 * bench/profile-stretches: what ran in a server's longest main-thread
 * stretches — a CPU profile (bun --cpu-prof, Chrome's .cpuprofile format)
 * read against the stretches bench/loop-stretches wrote beside it (epoch ms).
 * For each of the `--top N` (8) longest stretches: the functions with the
 * most samples inside it, by self time and by inclusive time (every frame on
 * the sampled stack, counted once per sample), with file:line.
 *
 *   bun run bench/profile-stretches.ts DIR/x.cpuprofile DIR/stretches-PID.jsonl [--top 8] [--from EPOCH_MS] [--to EPOCH_MS]
 *
 * The profile's clock: its `startTime` is taken as epoch µs when it lies
 * within a day of the stretches, else the profile is aligned so its end meets
 * the last stretch (printed, so a reader can judge it).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Stretch {
  from: number;
  to: number;
  cpuMs: number;
}

const [profilePath, stretchesPath] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const opt = (name: string) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : undefined);
const top = opt('--top') ?? 8;
const profile = JSON.parse(readFileSync(profilePath!, 'utf8')) as Profile;
let stretches = readFileSync(stretchesPath!, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Stretch);
const from = opt('--from');
const to = opt('--to');
if (from !== undefined) stretches = stretches.filter((s) => s.to >= from);
if (to !== undefined) stretches = stretches.filter((s) => s.from <= to);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;

// Sample times in epoch ms.
const startMs = profile.startTime / 1000;
const lastStretch = Math.max(...stretches.map((s) => s.to));
const offset = Math.abs(startMs - lastStretch) < 86_400_000 ? 0 : lastStretch - profile.endTime / 1000;
console.log(`profile ${new Date(startMs + offset).toISOString()} … ${new Date(profile.endTime / 1000 + offset).toISOString()}${offset ? ` (aligned by ${offset} ms)` : ''}`);
const times: number[] = [];
let t = startMs + offset;
for (const d of profile.timeDeltas) times.push((t += d / 1000));

for (const s of [...stretches].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, top)) {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let n = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (times[i]! < s.from || times[i]! > s.to) continue;
    const leaf = byId.get(profile.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)' || leaf.callFrame.functionName === '(program)') continue;
    n++;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const l = label(byId.get(id)!);
      if (seen.has(l) || l.startsWith('(root)')) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + 1);
    }
  }
  const list = (m: Map<string, number>, k: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([l, c]) => `    ${String(Math.round((100 * c) / Math.max(n, 1))).padStart(3)}%  ${l}`).join('\n');
  const app = new Map([...inclusive].filter(([l]) => l.includes(' src/')));
  console.log(`\n${s.cpuMs} ms CPU, ${new Date(s.from).toISOString()} (${s.to - s.from} ms wall), ${n} samples\n  self:\n${list(self, 8)}\n  inclusive:\n${list(inclusive, 25)}\n  the project's own frames (src/):\n${list(app, 15)}`);
}
