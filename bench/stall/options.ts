/**
 * @module bench/stall/options
 * bench/stall's command line, read once (the flags are documented in
 * bench/stall.ts and docs/stall.md).
 */
import { resolve } from 'node:path';
import { smoke } from '../lib';

/** Every value given after `name` (a repeatable flag). */
export function flag(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
}

export { smoke };
/** The repository this bench runs from ("this tree"). */
export const ROOT = resolve(import.meta.dir, '../..');
/** Callers of each route at once. */
export const CALLERS = 5;
export const seeded = process.argv.includes('--seeded');
/** `--cpu-prof DIR`: each server writes a CPU profile there on exit (bun --cpu-prof), each route's window printed to read it by. */
export const cpuProfDir = process.argv.includes('--cpu-prof') ? resolve(process.argv[process.argv.indexOf('--cpu-prof') + 1] ?? 'cpu-prof') : undefined;
/** `--cpu-prof-interval US`: the profiler's sampling interval (250 µs; a long run's profile at 250 µs may not be written before the shutdown deadline). */
export const cpuProfIntervalUs = Number(flag('--cpu-prof-interval')[0] ?? 250);
/** `--only PATH` (repeatable): only the routes whose path starts so. */
export const only = flag('--only');
/** `--route-timeout S`: a caller gives up after S seconds (60). */
export const timeoutMs = Number(flag('--route-timeout')[0] ?? 60) * 1000;
/** `--dump DIR`: each tree's bodies written there. */
export const dumpDir = flag('--dump')[0];
/** `--tree name=dir` (repeatable), then this tree. */
export const trees: [string, string][] = [...flag('--tree').map((t) => t.split('=') as [string, string]), ['this tree', ROOT]];
