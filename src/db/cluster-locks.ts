/**
 * @module db/cluster-locks
 * Locks across the instances that share one PostgreSQL database: session-level
 * advisory locks (PostgreSQL manual, "Advisory Locks", §13.3.5) held on a
 * connection of their own. A session lock lives exactly as long as the session
 * that took it, so the lock connection is a client of one connection with no
 * lifetime cap and no idle timeout (postgres.js would otherwise end it, and
 * every lock with it, after 30–60 minutes), and never a `reserve()`d
 * connection of the query pool (used after its backend died, it crashed the
 * process: porsager/postgres#1208). When that connection closes — PostgreSQL
 * restarted, the network cut it — every lock it held is gone: `session`
 * changes and `onSessionEnd` listeners are told at once, before the client
 * reconnects for the next call.
 *
 * Taking a lock never stacks (PostgreSQL counts a session's repeated takes and
 * wants as many unlocks): `tryLock` asks pg_locks first. PGlite belongs to one
 * process: every lock is granted.
 *
 * @example
 * const locks = postgresLocks(url);
 * if (await locks.tryLock(LOCK_KEYS.scheduler)) { ... } // this instance leads
 * await locks.exclusively(LOCK_KEYS.migrations, () => migrate(db)); // the others wait their turn
 */
import postgres from 'postgres';
import type { Timeframe } from '../domain/signal';

/** Breakline's advisory-lock namespace: "BRKL" in ASCII. */
const NAMESPACE = 0x42524b4c;
/** A key in the namespace (below 2^53: a JavaScript number, a PostgreSQL bigint). */
const inNamespace = (n: number) => NAMESPACE * 0x10000 + n;

/** Every cluster-wide lock the service takes, in one place, so no two uses share a key by accident. */
export const LOCK_KEYS = {
  /** The scan scheduler's leader: the key it has always had, so a rolling upgrade still has one leader. */
  scheduler: NAMESPACE,
  /** Applying migrations at start (the others wait, then find nothing to do). */
  migrations: inNamespace(1),
  /** The boot replay: run, or resumed, by one instance. */
  bootReplay: inNamespace(2),
  /** Scanning and persisting a timeframe's universe run: one instance scans, the others read its run. */
  scanRun: { daily: inNamespace(3), '4h': inNamespace(4), '1h': inNamespace(5) } satisfies Record<Timeframe, number>,
  /** Saving a timeframe's run over the head it was scanned after (a transaction-level lock: ScansRepository.saveRun's fence). */
  scanRunSave: { daily: inNamespace(6), '4h': inNamespace(7), '1h': inNamespace(8) } satisfies Record<Timeframe, number>,
  /** The vendor's live stream (providers/live/cluster): one connection per cluster, fanned out over Redis. */
  liveFeed: inNamespace(9),
  /** Computing a done replay's figures ahead (background/ahead): one instance a pass, the others read what it kept. */
  figuresAhead: inNamespace(10),
} as const;

export interface ClusterLocks {
  /** False on PGlite: one process, every lock granted at once. */
  readonly shared: boolean;
  /** The lock session's number: it moves on each time the session ends (and every lock with it). */
  readonly session: number;
  /** Takes the lock when it is free, or confirms this process holds it; never stacks. */
  tryLock(key: number): Promise<boolean>;
  unlock(key: number): Promise<void>;
  /** Which of `keys` this process's lock session holds now, as the server sees it. */
  holding(keys: readonly number[]): Promise<Set<number>>;
  /** Called each time the lock session ends (its connection closed): every lock it held is gone. */
  onSessionEnd(listener: () => void): () => void;
  /**
   * Waits for the lock (trying every `pollMs`), runs `work`, releases it.
   * Waiting polls rather than blocks in `pg_advisory_lock`, so the lock
   * connection stays free for the others' locks meanwhile.
   */
  exclusively<T>(key: number, work: () => Promise<T>, options?: { pollMs?: number; signal?: AbortSignal }): Promise<T>;
  close(): Promise<void>;
}

const POLL_MS = 250;

export function postgresLocks(url: string): ClusterLocks {
  let session = 0;
  const listeners = new Set<() => void>();
  const client = postgres(url, {
    max: 1,
    max_lifetime: 0,
    idle_timeout: 0,
    fetch_types: false,
    connect_timeout: 5,
    backoff: (retries) => Math.min(1, 0.1 * 2 ** Math.max(0, retries - 1)), // as the query pool's (db/client)
    onnotice: () => {},
    // Called synchronously when the connection closes, before any reconnect: no lock outlives it.
    onclose: () => {
      session++;
      for (const listener of listeners) listener();
    },
  });
  // A bigint advisory key as pg_locks shows it: classid its high 32 bits, objid its low 32, objsubid 1.
  const holding = async (keys: readonly number[]) => {
    if (keys.length === 0) return new Set<number>();
    const rows = await client<{ key: string }[]>`
      select ((classid::bigint << 32) | objid::bigint)::text as key from pg_locks
      where locktype = 'advisory' and objsubid = 1 and granted and pid = pg_backend_pid()
        and ((classid::bigint << 32) | objid::bigint) = any(${`{${keys.join(',')}}`}::bigint[])`; // an array literal: the lock client fetches no array types
    return new Set(rows.map((row) => Number(row.key)));
  };
  const tryLock = async (key: number) => {
    const [row] = await client<{ locked: boolean }[]>`
      select case when exists (
          select 1 from pg_locks where locktype = 'advisory' and objsubid = 1 and granted and pid = pg_backend_pid()
            and ((classid::bigint << 32) | objid::bigint) = ${String(key)}::bigint)
        then true else pg_try_advisory_lock(${String(key)}::bigint) end as locked`;
    return row?.locked === true;
  };
  const unlock = async (key: number) => {
    await client`select pg_advisory_unlock(${String(key)}::bigint)`;
  };
  return {
    shared: true,
    get session() {
      return session;
    },
    tryLock,
    unlock,
    holding,
    onSessionEnd(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async exclusively(key, work, options = {}) {
      while (!(await tryLock(key))) {
        options.signal?.throwIfAborted();
        await Bun.sleep(options.pollMs ?? POLL_MS);
      }
      const taken = session;
      try {
        return await work();
      } finally {
        // A session that ended took the lock with it; unlocking on the next one would be a no-op at best.
        if (session === taken) await unlock(key).catch(() => {});
      }
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/** PGlite's: one process holds every lock. */
export function processLocks(): ClusterLocks {
  return {
    shared: false,
    session: 0,
    tryLock: async () => true,
    unlock: async () => {},
    holding: async (keys) => new Set(keys),
    onSessionEnd: () => () => {},
    exclusively: (_key, work) => work(),
    close: async () => {},
  };
}
