import { describe, expect, it } from 'bun:test';
import { BackgroundWorkers, type BackgroundWorker, type WorkerPhase } from '../../src/background/workers';
import { createTestContext } from '../helpers/app';

/** Workers that write what happens to them into `events`. */
function recorded(events: string[], ...specs: [name: string, phase: WorkerPhase][]): BackgroundWorker[] {
  return specs.map(([name, phase]) => ({
    name,
    phase,
    start: () => void events.push(`start ${name}`),
    stop: () => void events.push(`stop ${name}`),
  }));
}

describe('the background workers list', () => {
  it('starts each phase in list order and stops them all in the reverse order, those never started too', async () => {
    const events: string[] = [];
    const workers = new BackgroundWorkers(recorded(events, ['health', 'warm-up'], ['webhooks', 'ready'], ['exports', 'ready'], ['scheduler', 'after ready']));
    await workers.start('warm-up');
    await workers.start('ready');
    await workers.stop();
    expect(events).toEqual(['start health', 'start webhooks', 'start exports', 'stop scheduler', 'stop exports', 'stop webhooks', 'stop health']);
  });

  it('stops one phase first (the server, on SIGTERM), the rest later, each worker once; nothing starts after a stop', async () => {
    const events: string[] = [];
    const workers = new BackgroundWorkers(recorded(events, ['health', 'warm-up'], ['scheduler', 'after ready'], ['boot replay', 'after ready']));
    await workers.start('warm-up');
    await workers.start('after ready');
    await workers.stop({ phase: 'after ready' });
    await workers.start('warm-up');
    await workers.stop();
    expect(events).toEqual(['start health', 'start scheduler', 'start boot replay', 'stop boot replay', 'stop scheduler', 'stop health']);
  });

  it('tells a worker still starting to stop at once, and waits for its start to end', async () => {
    let end: () => void = () => {};
    const events: string[] = [];
    const workers = new BackgroundWorkers([
      {
        name: 'boot replay',
        phase: 'after ready',
        start: () => new Promise<void>((resolve) => (end = resolve)),
        stop: () => {
          events.push('told to stop');
          end();
        },
      },
    ]);
    const starting = workers.start('after ready');
    await Bun.sleep(1);
    await workers.stop();
    await starting;
    expect(events).toEqual(['told to stop']);
  });

  it('is the services’ one list: the event bus, health and the vendor stream before readiness, queued work at it, scans, the replay and its figures after it', async () => {
    const ctx = await createTestContext({ env: { SCAN_INTERVAL_SECONDS: '60', REPLAY_ON_BOOT: 'on' } });
    try {
      const { background } = ctx.services;
      expect(background.list.map((w) => [w.phase, w.starting ?? w.name])).toEqual([
        ['warm-up', 'reading the event bus'],
        ['warm-up', 'checking the database, data adapter, rate-limit store and worker pool'],
        ['ready', 'webhook deliveries'],
        ['ready', 'export jobs'],
        ['after ready', 'the boot scans of every timeframe'],
        ['after ready', 'the boot replay'],
        ['after ready', "the replay's figures computed ahead"],
      ]);
    } finally {
      await ctx.close();
    }
  });
});
