import { describe, expect, it } from 'bun:test';
import { Poller } from '../src/poller';
import { createLogger } from '../src/log';
import { until } from './helpers/until';

const log = createLogger('silent');

/** A pass that waits until `release` is called, counting how many began. */
function gatedPass() {
  let began = 0;
  let open: () => void = () => {};
  const pass = async () => {
    began++;
    await new Promise<void>((resolve) => (open = resolve));
  };
  return { pass, began: () => began, release: () => open() };
}

describe('the background poller', () => {
  it('asks a varying interval again before each wait, and can leave the first pass to the first tick', async () => {
    const asked: number[] = [];
    let passes = 0;
    const poller = new Poller({ what: 'test pass', log, everyMs: () => (asked.push(asked.length), 1), firstAfterInterval: true, pass: async () => void passes++ });
    poller.start();
    expect(passes).toBe(0); // nothing at start
    while (passes < 3) await Bun.sleep(1);
    await poller.stop();
    const after = passes;
    expect(asked.length).toBeGreaterThanOrEqual(3); // one wait per tick
    await Bun.sleep(5);
    expect(passes).toBe(after); // stopped: no tick is left behind
  });

  it('joins the pass in progress on run(), so two callers never start two passes', async () => {
    const gate = gatedPass();
    const poller = new Poller({ what: 'test pass', log, everyMs: 60_000, pass: gate.pass });
    const first = poller.run();
    const second = poller.run();
    await until('the pass began', () => gate.began() === 1);
    gate.release();
    await Promise.all([first, second]);
    expect(gate.began()).toBe(1);
  });

  it('runs one more pass after the one in progress when kicked meanwhile', async () => {
    let passes = 0;
    let poller!: Poller;
    poller = new Poller({
      what: 'test pass',
      log,
      everyMs: 60_000,
      pass: async () => {
        if (++passes === 1) void poller.kick(); // work arrived mid-pass
      },
    });
    await poller.run(); // resolves once the follow-up pass is done too
    expect(passes).toBe(2);
  });

  it('tries a failed pass again with backoff, and never again once stopped', async () => {
    let passes = 0;
    const poller = new Poller({
      what: 'test pass',
      log,
      everyMs: 60_000,
      baseMs: 10,
      maxMs: 10,
      pass: async () => {
        if (++passes === 1) throw new Error('the database is away');
      },
    });
    await poller.run();
    await until('the retry (10 ms ± 20 % jitter)', () => passes === 2);
    await poller.run();
    expect(passes).toBe(3);
    await poller.stop();
    await poller.run();
    await poller.kick();
    expect(passes).toBe(3);
  });

  it('waits on stop for the pass in progress to finish', async () => {
    const gate = gatedPass();
    const poller = new Poller({ what: 'test pass', log, everyMs: 60_000, pass: gate.pass });
    poller.start();
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await until('the pass began', () => gate.began() === 1);
    expect(stopped).toBe(false);
    gate.release();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('leaves retries to a started loop when asked to (a scheduler ticked by hand retries nothing)', async () => {
    let passes = 0;
    const poller = new Poller({
      what: 'test pass',
      log,
      everyMs: 60_000,
      baseMs: 5,
      maxMs: 5,
      retryWhenStarted: true,
      pass: async () => {
        passes++;
        throw new Error('failing');
      },
    });
    await poller.run();
    await Bun.sleep(40);
    expect(passes).toBe(1);
    await poller.stop();
  });
});
