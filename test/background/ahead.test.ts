/**
 * Work done ahead (background/ahead) once per cluster: with a lease, a pass
 * runs its work only on the instance holding the cluster's lock — another
 * instance's pass meanwhile skips it — and gives the lock back when the pass
 * ends, so the next pass may run anywhere. Two instances share one in-memory
 * lock table here (the lock itself is db/cluster-locks', tested on a private
 * PostgreSQL in test/db/leases-restart).
 */
import { describe, expect, it } from 'bun:test';
import { WorkAhead } from '../../src/background/ahead';
import { Lease } from '../../src/db/lease';
import { LOCK_KEYS, type ClusterLocks } from '../../src/db/cluster-locks';
import { createLogger } from '../../src/log';
import { until } from '../helpers/until';

const log = createLogger('silent');

/** One lock table shared by the instances `locksOf` makes: a key is held by one instance at a time. */
function lockTable() {
  const owners = new Map<number, object>();
  return (): ClusterLocks => {
    const me = {};
    return {
      shared: true,
      session: 0,
      tryLock: async (key) => {
        if (owners.has(key) && owners.get(key) !== me) return false;
        owners.set(key, me);
        return true;
      },
      unlock: async (key) => void (owners.get(key) === me && owners.delete(key)),
      holding: async (keys) => new Set(keys.filter((k) => owners.get(k) === me)),
      onSessionEnd: () => () => {},
      exclusively: () => Promise.reject(new Error('not used here')),
      close: async () => {},
    };
  };
}

/** An instance's worker whose work waits until `finish` is called, counting the passes that ran it. */
function instance(locks: ClusterLocks) {
  let ran = 0;
  let finish: () => void = () => {};
  const worker = new WorkAhead({ what: 'test work', log, everyMs: 60_000, lease: new Lease({ name: 'test work', key: LOCK_KEYS.figuresAhead, locks, log, checkMs: 60_000 }) });
  worker.serve(async () => {
    ran++;
    await new Promise<void>((resolve) => (finish = resolve));
  });
  return { worker, ran: () => ran, finish: () => finish() };
}

describe('work done ahead, once per cluster', () => {
  it('runs on the instance holding the lease while the other skips, and lets the next pass run anywhere', async () => {
    const locksOf = lockTable();
    const a = instance(locksOf());
    const b = instance(locksOf());
    const first = a.worker.kick();
    await until("a's pass running", () => a.ran() === 1);
    await b.worker.kick(); // a holds the lease: b's pass skips the work and ends
    expect([a.ran(), b.ran()]).toEqual([1, 0]);

    a.finish();
    await first;
    const second = b.worker.kick(); // the lease was given back with a's pass
    await until("b's pass running", () => b.ran() === 1);
    expect([a.ran(), b.ran()]).toEqual([1, 1]);
    b.finish();
    await second;
    await Promise.all([a.worker.stop(), b.worker.stop()]);
  });
});
