/**
 * @module bench/stall/writes
 * The write phase (issue 27), first in each phase: a journal entry created
 * (`POST /api/journal/entries`) and a GraphQL query of the journal, `WRITES`
 * times each one after the other while `/livez` is probed: how long a user's
 * write or query waits (median and slowest), and the worst probe meanwhile.
 */
import { probeWhile } from '../../test/helpers/livez-probe';
import { timeoutMs } from './options';
import { settle } from './routes';
import type { Server } from './server';

export const WRITES = 5;
const JOURNAL_ENTRY = { symbol: 'NVDA', side: 'long', entryPrice: 151.4, entryAt: '2026-11-18T15:02:00Z', size: 100, notes: 'bench/stall write phase' };
export const WRITE_CALLS = [
  { name: 'POST /api/journal/entries', path: '/api/journal/entries', body: JOURNAL_ENTRY },
  { name: 'POST /api/graphql (journalEntries)', path: '/api/graphql', body: { query: '{ journalEntries(limit: 5) { items { id symbol } } }' } },
] as const;

export interface WriteMeasured {
  medianMs: number;
  slowestMs: number | string;
  statuses: string;
  worstLivezMs: number;
}

export async function measureWrites(server: Server, token: string): Promise<Map<string, WriteMeasured>> {
  const out = new Map<string, WriteMeasured>();
  for (const call of WRITE_CALLS) {
    await settle(server.base);
    const report = await probeWhile(server.base, async () => {
      const times: number[] = [];
      const statuses: string[] = [];
      for (let i = 0; i < WRITES; i++) {
        const began = performance.now();
        const signal = AbortSignal.timeout(timeoutMs);
        const status = await fetch(`${server.base}${call.path}`, { method: 'POST', signal, headers: { cookie: `__session=${token}`, 'content-type': 'application/json' }, body: JSON.stringify(call.body) })
          .then(async (r) => (await r.arrayBuffer(), String(r.status)))
          .catch(() => (signal.aborted ? 'timeout' : 'error'));
        times.push(performance.now() - began);
        statuses.push(status);
      }
      return { times, statuses };
    });
    const { times, statuses } = report.result;
    const sorted = [...times].sort((a, b) => a - b);
    const counts = new Map<string, number>();
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
    out.set(call.name, {
      medianMs: Math.round(sorted[Math.floor(sorted.length / 2)]!),
      slowestMs: statuses.includes('timeout') ? `>${timeoutMs}` : Math.round(sorted.at(-1)!),
      statuses: [...counts].map(([st, n]) => (n === WRITES ? st : `${st}×${n}`)).join(' '),
      worstLivezMs: Math.round(report.worstMs),
    });
  }
  return out;
}
