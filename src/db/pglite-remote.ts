/**
 * @module db/pglite-remote
 * The embedded database's client on the server's thread: PGlite itself runs
 * in a thread of its own (db/pglite-thread) and this is what drizzle's PGlite
 * driver is given instead of a PGlite — the calls the driver makes
 * (drizzle-orm 0.45 pglite/session.js: `query(sql, params, { rowMode,
 * parsers })` and `transaction(callback)`), plus `exec`, `dumpDataDir` (the
 * template script) and `close`. Rows cross as structured clones; drizzle's
 * text parsers run in the thread (db/pglite-parsers); errors keep their
 * SQLSTATE `code` and fields (db/pglite-wire).
 *
 * A transaction's queries go to the one PGlite transaction in the thread; a
 * callback that throws rolls it back. Requests are sent at once and PGlite
 * serialises them as it did in this thread. One thread holds every embedded
 * database of the process (db/pglite-thread says why); it is started by the
 * first open and kept, holding the process open only while a database is open
 * in it (Bun lost a reply now and then when a worker was unreferenced between
 * requests and referenced again: a transaction's `begin` never answered, under
 * bun test). If it ends (a crash of PGlite's WebAssembly, an out-of-memory),
 * every request waiting and every later one to a database it held is refused
 * with SQLSTATE 08006 (connection_failure), which the server answers 503, as
 * for a PostgreSQL server that is gone; the next request to a database on
 * disk opens it again in a new thread.
 *
 * @example
 * const pglite = await RemotePglite.open({ dataDir: ':memory:', template: true, wasmModule, wasmHash });
 * await pglite.query('select 1 as one'); // => { rows: [{ one: 1 }], … }
 * await pglite.close();
 */
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import type { PgliteOpenRequest } from './pglite-open';
import { wireOptions } from './pglite-parsers';
import { fromWire, threadGone, type PgliteReply, type PgliteRequest } from './pglite-wire';

/**
 * The thread's module. From source it sits beside this file; in the
 * executable built by `npm run build` it is an extra entrypoint embedded at
 * `$bunfs/root/src/db/pglite-thread.ts` (see scripts/build.ts).
 */
const PGLITE_THREAD = import.meta.url.includes('/$bunfs/')
  ? new URL('./src/db/pglite-thread.ts', import.meta.url).href
  : new URL('./pglite-thread.ts', import.meta.url).href;

/**
 * How long `close` waits for PGlite to shut down (it waits for the queries
 * and the transaction in progress, then checkpoints) before it ends the
 * thread anyway: within the server's 5 s shutdown budget. A database ended
 * that way is recovered from its write-ahead log at the next start, as after
 * a crash.
 */
const CLOSE_WAIT_MS = 3_000;

/** A request without its ids: the host numbers it, the database names itself. */
type Request = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id' | 'db'> : never) : never;

/** Bun's Worker, which can be kept from holding the process open (the DOM type has no ref/unref). */
type BunWorker = Worker & { ref(): void; unref(): void };

/** What a transaction's callback is given: the calls drizzle's driver makes on it. */
type RemoteTransaction = Pick<Transaction, 'query' | 'exec' | 'closed'>;

/** The thread and the requests waiting on it. */
class Host {
  private readonly worker = new Worker(PGLITE_THREAD) as BunWorker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  /** Databases open in the thread. */
  private open = 0;
  /** Replies arrived and not yet settled, and the backstop timer of their settling. */
  private arrived: PgliteReply[] = [];
  private backstop?: ReturnType<typeof setTimeout>;
  /** Why the thread can answer no more, once it cannot. */
  gone?: Error;

  constructor() {
    this.worker.onmessage = ({ data }: MessageEvent<PgliteReply>) => this.arrive(data);
    this.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault(); // the thread's failure is the database's, not the process's
      this.end(threadGone(event.message || 'an error in its thread'));
    };
    this.worker.addEventListener('close', () => this.end(threadGone('it exited')));
    this.worker.unref();
  }

  send(db: number, request: Request): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id, db } as PgliteRequest);
    });
  }

  /** Counts a database opened (+1) or closed (−1): the thread holds the process open while one is. */
  hold(change: 1 | -1): void {
    this.open += change;
    if (change > 0 && this.open === 1) this.worker.ref();
    if (this.open === 0) this.worker.unref();
  }

  /** Ends the thread: every request waiting is refused with `why`, and every later one. */
  end(why: Error): void {
    if (this.gone) return;
    this.gone = why;
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(why);
    this.pending.clear();
  }

  /**
   * Settles replies after the message's dispatch, not inside it. Bun (1.3.14
   * to at least 1.4.5) keeps a worker channel's "drain scheduled" flag set for
   * the whole dispatch, microtasks included, and posts no wake-up for a message
   * arriving meanwhile: code continuing from a reply that then waits in a
   * nested event loop (bun:test's `expect(promise).rejects`) never got the
   * next reply (oven-sh/bun#37189, #43819; fix proposed in #37190). Settling
   * from an immediate ends the dispatch first; the timer is for a nested loop,
   * which runs timers but took about a second to run an immediate. Measured
   * cost: none (12 µs a sequential round trip settled in the dispatch, 11 this
   * way).
   */
  private arrive(reply: PgliteReply): void {
    this.arrived.push(reply);
    if (this.arrived.length > 1) return;
    this.backstop = setTimeout(this.settle, 0);
    setImmediate(this.settle);
  }

  private readonly settle = (): void => {
    clearTimeout(this.backstop);
    const replies = this.arrived;
    this.arrived = [];
    for (const reply of replies) {
      const waiting = this.pending.get(reply.id);
      if (!waiting) continue;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(fromWire(reply.error));
    }
  };
}

let host: Host | undefined;
let nextDb = 1;

/** One embedded database in PGlite's thread, with the calls drizzle's PGlite driver makes. */
export class RemotePglite {
  /** Why this database answers no more, once it does not (closed). */
  private gone?: Error;
  private closing?: Promise<void>;
  /** The database opened again in a new thread after its thread ended, while that is under way. */
  private reopening?: Promise<void>;

  private constructor(
    private host: Host,
    private readonly db: number,
    private readonly request: PgliteOpenRequest,
  ) {}

  /** Opens a database in PGlite's thread (started now if none runs). */
  static async open(open: PgliteOpenRequest): Promise<RemotePglite> {
    const database = new RemotePglite(currentHost(), nextDb++, open);
    await database.openIn(database.host);
    return database;
  }

  private async openIn(on: Host): Promise<void> {
    on.hold(1);
    try {
      await on.send(this.db, { op: 'open', open: this.request });
    } catch (error) {
      on.hold(-1);
      throw error;
    }
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.send({ op: 'query', text, params, options: wireOptions(options) }) as Promise<Results<T>>;
  }

  exec(text: string): Promise<Results[]> {
    return this.send({ op: 'exec', text }) as Promise<Results[]>;
  }

  /** Runs `callback` in one PGlite transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const tx = (await this.send({ op: 'begin' })) as number;
    const began = this.host;
    let closed = false;
    // A transaction belongs to the thread it began in: one that ended took it along.
    const inside = <R>(request: Request) =>
      closed ? Promise.reject(new Error('Transaction is closed')) : began.gone ? Promise.reject(began.gone) : (began.send(this.db, request) as Promise<R>);
    const handle: RemoteTransaction = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => inside<Results<R>>({ op: 'query', tx, text, params, options: wireOptions(options) }),
      exec: (text: string) => inside<Results[]>({ op: 'exec', tx, text }),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(handle);
    } catch (error) {
      await inside({ op: 'end', tx, commit: false }).catch(() => {}); // the callback's error is the one to tell
      closed = true;
      throw error;
    }
    await inside({ op: 'end', tx, commit: true }).finally(() => (closed = true));
    return result;
  }

  /** The data directory as an uncompressed tar (scripts/pglite-template.ts). */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([(await this.send({ op: 'dump' })) as ArrayBuffer]);
  }

  /**
   * Closes the database (within CLOSE_WAIT_MS). One that does not close in
   * time ends the thread, and with it any other database the process holds
   * there (the server holds one; tests and benchmarks more).
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CLOSE_WAIT_MS)));
      try {
        if (this.host.gone) return; // the thread ended: nothing is left to close
        if ((await Promise.race([this.send({ op: 'close' }), waited])) === 'late') {
          this.host.end(threadGone(`a database did not close within ${CLOSE_WAIT_MS} ms`));
          throw new Error(`the embedded database did not close within ${CLOSE_WAIT_MS} ms; its thread was ended (its write-ahead log recovers it at the next start)`);
        }
      } finally {
        clearTimeout(timer);
        this.gone ??= threadGone('the database was closed');
        this.host.hold(-1);
      }
    })();
    return this.closing;
  }

  /**
   * Sends to the thread. After the thread ended (a crash: the requests waiting
   * were refused), a database on disk is opened again in a new thread and the
   * request waits for it — PostgreSQL recovers the data directory from its
   * write-ahead log as after any crash; an in-memory one is gone with its
   * thread.
   */
  private async send(request: Request): Promise<unknown> {
    if (this.gone) throw this.gone;
    if (this.host.gone && this.request.dataDir !== ':memory:') {
      this.reopening ??= (async () => {
        const on = currentHost();
        await this.openIn(on);
        this.host = on;
      })()
        .catch((error: unknown) => {
          throw Object.assign(threadGone(`opening it again failed: ${error instanceof Error ? error.message : String(error)}`), { cause: error });
        })
        .finally(() => (this.reopening = undefined));
      await this.reopening;
    }
    return this.host.send(this.db, request);
  }
}

/** The thread, started now if none runs or the last one ended. */
function currentHost(): Host {
  if (!host || host.gone) host = new Host();
  return host;
}

/** Ends PGlite's thread as a crash would (tests: what a request waiting and a later one get). */
export function endPgliteThreadForTest(): void {
  host?.end(threadGone('ended by a test'));
}
