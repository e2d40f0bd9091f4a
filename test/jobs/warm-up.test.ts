import { describe, expect, it } from 'bun:test';
import { readiness, WarmUp } from '../../src/jobs/health';

/** A step's work that ends when told to. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('WarmUp', () => {
  it('names the step in progress, steps side by side together, and the one still running when the other ends', async () => {
    const warmUp = new WarmUp();
    expect(warmUp.step).toBe('starting');
    const database = gate();
    const modules = gate();
    const opening = warmUp.run('opening the database', () => database.opened);
    expect(warmUp.step).toBe('opening the database');
    const loading = warmUp.run('loading the application', () => modules.opened);
    expect(warmUp.step).toBe('opening the database + loading the application');
    modules.open();
    await loading;
    expect(warmUp.step).toBe('opening the database');
    database.open();
    await opening;
    expect(warmUp.step).toBe('opening the database');
    await warmUp.run('loading the latest daily scan', async () => {
      expect(warmUp.step).toBe('loading the latest daily scan');
    });
    warmUp.done();
    expect(warmUp.step).toBe('done');
  });

  it('ends a failed step and passes its error on', async () => {
    const warmUp = new WarmUp();
    const failing = warmUp.run('opening the database', () => Promise.reject(new Error('disk full')));
    const other = warmUp.run('loading the application', () => Promise.resolve(1));
    await expect(failing).rejects.toThrow('disk full');
    expect(await other).toBe(1);
    expect(warmUp.step).toBe('loading the application');
  });

  it('is not ready before migrations and the first scan, whatever the health round says', () => {
    const warmUp = new WarmUp();
    const healthy = { checks: { db: 'ok', dataAdapter: 'ok', env: 'ok', kv: 'ok', pool: 'ok' }, details: {}, checkedAt: 0 } as unknown as Parameters<typeof readiness>[1];
    expect(readiness(warmUp, healthy)).toEqual({ ready: false, checks: { database: true, migrations: false, pool: true, firstScan: false } });
    warmUp.migrated = true;
    warmUp.firstScanLoaded = true;
    expect(readiness(warmUp, healthy).ready).toBe(true);
    expect(readiness(warmUp, undefined).ready).toBe(false);
  });
});
