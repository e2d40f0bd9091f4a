/**
 * @module test/helpers/cluster/audit
 * What the database says after a scenario, read directly (postgres.js as the
 * superuser of the private server) and set against what clients saw:
 *
 * - writes: every write the traffic had acknowledged (201) is stored, once;
 * - ledgers: no record twice (same kind, signal and data; a run id apart);
 * - once-per-cluster jobs: no two scans of one timeframe at once, no scan
 *   persisted outside the scheduler (the warm-up's first daily scan, once per
 *   cluster), one boot replay whose counters match its records;
 * - streams: each stored event reached each subscriber exactly once, or the
 *   subscriber was told `reset` after it was stored; nothing else arrived.
 *
 * Table and column names are the drizzle schema's (src/db/schema).
 */
import type postgres from 'postgres';
import type { StreamEvent, Subscriber } from './subscriber';
import type { AckedWrite, WriteKind } from './traffic';

type Sql = postgres.Sql;

const TABLE_OF: Record<WriteKind, { table: string; marker: string }> = {
  journal: { table: 'journal_entries', marker: 'notes' },
  watchlist: { table: 'watchlists', marker: 'name' },
  rule: { table: 'alert_rules', marker: 'name' },
};

export interface WriteAudit {
  acknowledged: number;
  /** Acknowledged writes not in the database (`kind id marker`). */
  lost: string[];
  /** Markers stored more than once (a write applied twice). */
  duplicated: string[];
}

export async function auditWrites(sql: Sql, acked: AckedWrite[]): Promise<WriteAudit> {
  const lost: string[] = [];
  const duplicated: string[] = [];
  for (const [kind, { table, marker }] of Object.entries(TABLE_OF) as [WriteKind, (typeof TABLE_OF)[WriteKind]][]) {
    const mine = acked.filter((w) => w.kind === kind);
    if (mine.length === 0) continue;
    const rows = await sql<{ id: string; marker: string }[]>`select id, ${sql(marker)} as marker from ${sql(table)} where ${sql(marker)} in ${sql(mine.map((w) => w.marker))}`;
    const byMarker = Map.groupBy(rows, (r) => r.marker);
    for (const write of mine) {
      const stored = byMarker.get(write.marker) ?? [];
      if (!stored.some((r) => r.id === write.id)) lost.push(`${kind} ${write.id} ${write.marker}`);
      if (stored.length > 1) duplicated.push(`${kind} ${write.marker} ×${stored.length}`);
    }
  }
  return { acknowledged: acked.length, lost, duplicated };
}

export interface LedgerAudit {
  /** Records written in the window whose kind, signal and data (a run id aside) an earlier record of the chain already holds. */
  duplicateRecords: { chain: 'live' | 'replay'; count: number; examples: string[] };
}

/** Duplicate records of one chain whose latest copy was recorded since `from` (`replay_id` keeps replays apart in the replay chain). */
async function duplicatesIn(sql: Sql, chain: 'live' | 'replay', from: number): Promise<LedgerAudit['duplicateRecords']> {
  const table = chain === 'live' ? 'ledger_records' : 'replay_ledger_records';
  const rows = await sql<{ key: string; copies: number }[]>`
    select concat_ws(' ', replay_id, kind, signal_id, ((body::jsonb -> 'data') - 'runId')::text) as key, count(*)::int as copies
    from ${sql(table)} group by replay_id, kind, signal_id, (body::jsonb -> 'data') - 'runId'
    having count(*) > 1 and max(recorded_at) >= ${new Date(from)}
    order by count(*) desc`;
  return { chain, count: rows.reduce((n, r) => n + r.copies - 1, 0), examples: rows.slice(0, 3).map((r) => `${r.key.slice(0, 200)} ×${r.copies}`) };
}

/** Both chains' duplicates made since `from` (a scenario answers for its own). */
export async function auditLedgers(sql: Sql, from: number): Promise<LedgerAudit['duplicateRecords'][]> {
  return [await duplicatesIn(sql, 'live', from), await duplicatesIn(sql, 'replay', from)];
}

export interface ScanRun {
  id: string;
  timeframe: string;
  startedAt: Date;
  finishedAt: Date;
}

export interface JobAudit {
  /** Pairs of runs of one timeframe that ran at the same time (two schedulers, or a warm-up beside one). */
  overlapping: string[];
  /** Runs persisted outside the scheduler, by timeframe (the warm-up's first daily scan is the one expected, once). */
  unscheduled: Record<string, number>;
  /** Their ids and times, for the report. */
  unscheduledRuns: string[];
  /** Runs started in the window. */
  runs: number;
  /** Boot replays started in the window (one in the fresh start, none after). */
  bootReplaysStarted: number;
  /** Boot replays that ran in the window (started, resumed or finished), with their signal counter and signal records. */
  bootReplays: { id: string; status: string; signals: number; signalRecords: number }[];
}

/**
 * Scheduling of the runs that started in [from, to): overlaps, and runs no
 * scheduler persisted (`scheduled` says whether one did: see run.ts, which
 * reads the instances' logs).
 */
export async function auditJobs(sql: Sql, window: { from: number; to: number }, scheduled: (run: ScanRun) => boolean): Promise<JobAudit> {
  const runs = await sql<ScanRun[]>`select id, timeframe, started_at as "startedAt", finished_at as "finishedAt" from scan_runs order by timeframe, started_at`;
  const inWindow = (r: ScanRun) => r.startedAt.getTime() >= window.from && r.startedAt.getTime() < window.to;
  const overlapping: string[] = [];
  for (const [timeframe, list] of Map.groupBy(runs, (r) => r.timeframe)) {
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      if ((inWindow(a) || inWindow(b)) && b.startedAt < a.finishedAt) overlapping.push(`${timeframe}: ${a.id} and ${b.id} (${a.startedAt.toISOString()}–${a.finishedAt.toISOString()} / ${b.startedAt.toISOString()})`);
    }
  }
  const unscheduled: Record<string, number> = {};
  const unscheduledRuns: string[] = [];
  for (const run of runs.filter((r) => inWindow(r) && !scheduled(r))) {
    unscheduled[run.timeframe] = (unscheduled[run.timeframe] ?? 0) + 1;
    unscheduledRuns.push(`${run.timeframe} ${run.id} ${run.startedAt.toISOString()}–${run.finishedAt.toISOString()}`);
  }
  const boot = await sql<(JobAudit['bootReplays'][number] & { startedAt: Date; updatedAt: Date })[]>`
    select r.id, r.status, r.signals, r.started_at as "startedAt", r.updated_at as "updatedAt",
      (select count(*)::int from replay_ledger_records l where l.replay_id = r.id and l.kind = 'signal') as "signalRecords"
    from replay_runs r where r.origin = 'boot' order by r.started_at`;
  const bootReplays = boot.filter((r) => r.updatedAt.getTime() >= window.from).map(({ id, status, signals, signalRecords }) => ({ id, status, signals, signalRecords }));
  const bootReplaysStarted = boot.filter((r) => r.startedAt.getTime() >= window.from && r.startedAt.getTime() < window.to).length;
  return { overlapping, unscheduled, unscheduledRuns, runs: runs.filter(inWindow).length, bootReplaysStarted, bootReplays };
}

/** A stream event as the database holds it: its key and when it was stored. */
export interface StoredEvent {
  key: string;
  at: number;
}

/** Every event the service has stored (state changes and new signals: signal_events; fired rules: alert_dispatches). */
export async function storedEvents(sql: Sql): Promise<StoredEvent[]> {
  const changes = await sql<{ signalId: string; from: string | null; to: string; at: Date; recordedAt: Date }[]>`
    select signal_id as "signalId", from_state as from, to_state as to, at, recorded_at as "recordedAt" from signal_events`;
  const alerts = await sql<{ id: string; createdAt: Date }[]>`select id, created_at as "createdAt" from alert_dispatches`;
  return [
    ...changes.map((c) => ({ key: c.from === null ? `new ${c.signalId}` : `change ${c.signalId} ${c.from}→${c.to} at ${c.at.toISOString()}`, at: c.recordedAt.getTime() })),
    ...alerts.map((a) => ({ key: `alert ${a.id}`, at: a.createdAt.getTime() })),
  ];
}

/** The key of an event as a subscriber received it (undefined for hello, quote, reset and other instance-made events). */
export function keyOf(event: StreamEvent): string | undefined {
  const d = event.data;
  if (event.event === 'breakouts.new') return `new ${(d.signal as { id: string }).id}`;
  if (event.event === 'breakouts.state_change') return `change ${d.signalId} ${d.from}→${d.to} at ${d.at}`;
  if (event.event === 'alerts.dispatched') return `alert ${d.alertId}`;
  return undefined;
}

export interface StreamAudit {
  subscriber: string;
  /** Stored events it had to receive (stored after its first hello). */
  expected: number;
  received: number;
  /** Expected events it never received and no later `reset` excused. */
  lost: number;
  /** Expected events it never received, each followed by a `reset`. */
  excusedByReset: number;
  /** Copies received beyond the stored ones. */
  duplicates: number;
  /** Received events the database does not hold at all (another deployment's, or published and never stored). */
  foreign: number;
  resets: number;
  connects: number;
  examples: string[];
}

/**
 * `owed`: the stored events the subscriber must have received — by default
 * all of `stored`; the runner passes what the database held at its last look
 * while the subscriber was connected (an event's time is taken before its
 * transaction commits, so a time cut-off would owe events not yet visible).
 * `stored` holds every event, so nothing the database holds is foreign.
 */
export function auditStream(subscriber: Subscriber, stored: StoredEvent[], owed: StoredEvent[] = stored): StreamAudit {
  const since = subscriber.firstHelloAt ?? Number.POSITIVE_INFINITY;
  const all = new Map<string, number>();
  for (const e of stored) all.set(e.key, (all.get(e.key) ?? 0) + 1);
  const due = new Map<string, number[]>();
  for (const e of owed) if (e.at > since) due.set(e.key, [...(due.get(e.key) ?? []), e.at]);
  const got = new Map<string, number>();
  for (const e of subscriber.events) {
    const key = keyOf(e);
    if (key) got.set(key, (got.get(key) ?? 0) + 1);
  }
  const resets = subscriber.of('reset').map((e) => e.at);
  const lastArrival = subscriber.events.at(-1)?.at;
  const last = lastArrival === undefined ? 'nothing received' : `last event received ${new Date(lastArrival).toISOString()}`;
  const examples: string[] = [];
  let lost = 0;
  let excused = 0;
  let expected = 0;
  for (const [key, times] of due) {
    expected += times.length;
    const missing = Math.max(0, times.length - (got.get(key) ?? 0));
    if (missing === 0) continue;
    const storedAt = times.at(-1)!;
    if (resets.some((r) => r > storedAt)) excused += missing;
    else {
      lost += missing;
      if (examples.length < 3) examples.push(`lost: ${key} (stored ${new Date(storedAt).toISOString()}; ${last})`);
    }
  }
  let duplicates = 0;
  let foreign = 0;
  for (const [key, count] of got) {
    const held = all.get(key) ?? 0;
    if (held === 0) {
      foreign += count;
      if (examples.length < 6) examples.push(`foreign: ${key}`);
    } else if (count > held) {
      duplicates += count - held;
      if (examples.length < 6) examples.push(`duplicate: ${key} ×${count}`);
    }
  }
  const received = [...got.values()].reduce((a, b) => a + b, 0);
  return { subscriber: subscriber.name, expected, received, lost, excusedByReset: excused, duplicates, foreign, resets: resets.length, connects: subscriber.connects, examples };
}
