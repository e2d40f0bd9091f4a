/**
 * @module db/pglite-thread
 * The thread the embedded database runs in (a Bun Worker started by
 * db/pglite-remote): it owns the PGlite instances and answers the server's
 * requests, so PGlite's WebAssembly — every statement it executes, every row
 * it decodes — never holds the server's event loop (issue 27: about half of
 * the boot replay's main-thread stretches were PGlite executing inserts, the
 * ledger pages' 20–170 ms stretches PGlite decoding them).
 *
 * One thread holds every embedded database the process opens (the server
 * opens one; a test run opens hundreds, one after another): in one thread,
 * PGlite's WebAssembly is compiled to machine code once, where a thread per
 * database paid that again for each (825 against 486 ms of CPU per test
 * database; about 464 in the shared thread).
 *
 * Requests are handled as they arrive and PGlite serialises them itself, as
 * it did in the server's thread: a query waits for the transaction in
 * progress (PGlite's transaction mutex), and a transaction's queries go to
 * that transaction (`tx` in the request). A transaction stays open until the
 * server's `end` says commit or roll back. Every request gets one reply.
 *
 * Not PGlite's own worker (@electric-sql/pglite/worker): that one elects a
 * leader among browser tabs with navigator.locks and BroadcastChannel and
 * speaks to PGlite's API, where this one serves drizzle's calls only.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { openPgliteHere } from './pglite-open';
import { toWire, type PgliteReply, type PgliteRequest } from './pglite-wire';

declare const self: Worker;

/** The open databases by id (the server's numbering). */
const databases = new Map<number, Promise<PGlite>>();

/** Open transactions by the id of their `begin`: the handle their queries go to, and how the server ends them. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean, replyId: number) => void }>();

/** Thrown inside PGlite's transaction callback to make PGlite roll it back. */
const ROLL_BACK = Symbol('roll back');

function reply(message: PgliteReply, transfer?: Transferable[]): void {
  self.postMessage(message, transfer ?? []);
}

function answer(id: number, work: Promise<unknown>): void {
  work.then(
    (value) => reply({ id, ok: true, value }),
    (error: unknown) => reply({ id, ok: false, error: toWire(error) }),
  );
}

/** The handle a request goes to: its transaction's, or PGlite's own (which waits for any transaction in progress). */
async function target(db: number, tx: number | undefined): Promise<Pick<PGlite, 'query' | 'exec'>> {
  if (tx === undefined) return database(db);
  const open = transactions.get(tx);
  if (!open) throw new Error(`no open transaction ${tx} in the embedded database's thread`);
  return open.tx;
}

function database(db: number): Promise<PGlite> {
  return databases.get(db) ?? Promise.reject(new Error(`the embedded database ${db} is not open`));
}

/** Opens a transaction: replies to `begin` once PGlite holds it, and to the `end` when it is committed or rolled back. */
async function begin(id: number, db: number): Promise<void> {
  let endReply: number | undefined;
  try {
    await (await database(db)).transaction(async (tx) => {
      const commit = await new Promise<boolean>((resolve) => {
        transactions.set(id, { tx, end: (yes, replyId) => ((endReply = replyId), resolve(yes)) });
        reply({ id, ok: true, value: id });
      });
      if (!commit) throw ROLL_BACK;
    });
    reply({ id: endReply!, ok: true, value: undefined });
  } catch (error) {
    // Before the transaction began (BEGIN failed) the reply goes to `begin`; after, to `end`.
    if (endReply === undefined) reply({ id, ok: false, error: toWire(error) });
    else if (error === ROLL_BACK) reply({ id: endReply, ok: true, value: undefined });
    else reply({ id: endReply, ok: false, error: toWire(error) });
  } finally {
    transactions.delete(id);
  }
}

async function dump(db: number): Promise<ArrayBuffer> {
  const file = await (await database(db)).dumpDataDir('none');
  return file.arrayBuffer();
}

async function close(db: number): Promise<void> {
  const client = database(db);
  try {
    await (await client).close();
  } finally {
    databases.delete(db);
  }
}

self.onmessage = ({ data: request }: MessageEvent<PgliteRequest>) => {
  switch (request.op) {
    case 'open': {
      const opening = openPgliteHere(request.open);
      databases.set(request.db, opening);
      opening.catch(() => databases.get(request.db) === opening && databases.delete(request.db));
      return answer(request.id, opening.then(() => undefined));
    }
    case 'query':
      return answer(request.id, target(request.db, request.tx).then((on) => on.query(request.text, request.params, request.options)));
    case 'exec':
      return answer(request.id, target(request.db, request.tx).then((on) => on.exec(request.text)));
    case 'begin':
      void begin(request.id, request.db);
      return;
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) return reply({ id: request.id, ok: false, error: toWire(new Error(`no open transaction ${request.tx}`)) });
      return open.end(request.commit, request.id);
    }
    case 'dump':
      return void dump(request.db).then(
        (bytes) => reply({ id: request.id, ok: true, value: bytes }, [bytes]),
        (error: unknown) => reply({ id: request.id, ok: false, error: toWire(error) }),
      );
    case 'close':
      return answer(request.id, close(request.db));
  }
};
