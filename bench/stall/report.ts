/**
 * @module bench/stall/report
 * bench/stall's tables: every tree side by side, per phase — the routes, the
 * write phase, the quotes with SIGTERM and the load, and the worst `/livez`.
 */
import { printTable } from '../lib';
import { clock } from './clock';
import { CALLERS, seeded, smoke } from './options';
import { TICK_MS } from './quotes';
import { sameBodies, type Measured } from './routes';
import type { TreeResult } from './trees';
import { WRITE_CALLS, WRITES } from './writes';

export function printReport(results: ({ name: string } & TreeResult)[]): void {
  const phases = seeded ? (['after'] as const) : smoke ? (['during'] as const) : (['during', 'after'] as const);
  const paths = [...new Set(results.flatMap((r) => r.routes.map((x) => x.path)))];
  const rows = paths.map((path) => {
    const row: Record<string, string | number> = { route: path };
    for (const phase of phases) {
      for (const r of results) {
        const m = r[phase].get(path);
        row[`${r.name} ${phase}: worst livez ms`] = m ? `${m.worstMs}${phase === 'during' && !m.replaying ? '*' : ''}${m.late ? ` (${m.late} late)` : ''}` : '-';
        row[`${r.name} ${phase}: floor ms`] = m?.floorMs === undefined ? '-' : `${m.floorMs} (${m.floorCpuMs})`;
        row[`${r.name} ${phase}: main thread ms`] = m?.worstCpuMs ?? '-';
        row[`${r.name} ${phase}: load`] = m ? m.load.toFixed(1) : '-';
        row[`${r.name} ${phase}: slowest s`] = m?.slowestS ?? '-';
        if (r === results.at(-1)) row[`${phase} status`] = m?.statuses ?? '-';
      }
    }
    if (seeded && results.length > 1) row['same body'] = sameBodies(path);
    return row;
  });
  printTable(
    `Worst /livez (ms) while each documented GET route is called cold, ${CALLERS} at once (* the boot replay had ended; late: probes that waited > 100 ms while the server's main thread worked that long; main thread ms: the most CPU its main thread spent while one probe waited; floor ms: a bare Bun.serve process's worst /livez over the same window, probed the same way, with its main thread's CPU then in brackets — what the machine allowed (bench/stall/floor); load: the load average (1 min) as the calls ended)${seeded ? ', over the seeded ledgers' : ''}`,
    rows,
  );
  printTable(
    `Writes and a GraphQL query, ${WRITES} one after the other (ms: median / slowest; worst /livez meanwhile; * the boot replay had ended)`,
    WRITE_CALLS.map((call) => {
      const row: Record<string, string> = { call: call.name };
      for (const phase of phases) {
        for (const r of results) {
          const m = (phase === 'during' ? r.writesDuring : r.writesAfter).get(call.name);
          const mark = phase === 'during' && !r.writesReplaying ? '*' : '';
          row[`${r.name} ${phase}: median / slowest ms`] = m ? `${m.medianMs} / ${m.slowestMs}${mark}` : '-';
          row[`${r.name} ${phase}: worst livez ms`] = m ? String(m.worstLivezMs) : '-';
          if (r === results.at(-1)) row[`${phase} status`] = m?.statuses ?? '-';
        }
      }
      return row;
    }),
  );
  const quotes = (q: TreeResult['quotesDuring']) => (q.quotes ? `${q.quotes}, ${q.maxGapS}, ${q.ageS}, ${q.late}` : '-');
  printTable(
    `Per tree: quotes on /api/stream (AAPL, MSFT): count, longest gap of a symbol (s), age on arrival (s, median / oldest), late (arrived > ${(2 * TICK_MS) / 1000} s old: more than one tick late); the floor: a bare process ticking on the same interval beside it, its quotes read the same way (what the machine allowed); SIGTERM to exit; load average (1 min) at the phases. Clock: ${clock.label}`,
    results.map((r) => ({
      tree: r.name,
      'during: quotes, gap, age, late': quotes(r.quotesDuring),
      'after: quotes, gap, age, late': quotes(r.quotesAfter),
      'floor during: quotes, gap, age, late': quotes(r.floorQuotesDuring),
      'floor after: quotes, gap, age, late': quotes(r.floorQuotesAfter),
      'SIGTERM during replay ms': r.stopDuringMs === null ? '-' : Math.round(r.stopDuringMs),
      'SIGTERM after ms': r.stopAfterMs === null ? '-' : Math.round(r.stopAfterMs),
      'load avg': r.loads.map((l) => l.toFixed(1)).join(' / '),
    })),
  );
  const worst = (r: TreeResult, phase: 'during' | 'after', of: (m: Measured) => number | undefined) => Math.max(0, ...[...r[phase].values()].map((m) => of(m) ?? 0));
  const both = (r: TreeResult, phase: 'during' | 'after') => `${worst(r, phase, (m) => m.worstMs)} (floor ${worst(r, phase, (m) => m.floorMs)})`;
  printTable('Worst /livez over every route (ms), with the floor process\'s worst over the same windows', results.map((r) => ({ tree: r.name, during: seeded ? '-' : both(r, 'during'), after: smoke && !seeded ? '-' : both(r, 'after') })));
}
