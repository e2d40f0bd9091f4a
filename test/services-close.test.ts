/**
 * The services' `close` (src/services.ts): every step named in the log as it
 * starts, and a step that takes over a second named again with its time — a
 * shutdown past its deadline or a test teardown that hangs says what it
 * waited for.
 */
import { describe, expect, it } from 'bun:test';
import { createLogger } from '../src/log';
import { createTestContext } from './helpers/app';

describe('closing the services', () => {
  it('logs each step as it starts, in order, and the one that took over a second with its time', async () => {
    const lines: { level: string; msg: string; step?: string; ms?: number }[] = [];
    const ctx = await createTestContext({ log: createLogger('debug', (line) => lines.push(JSON.parse(line))) });
    ctx.services.atClose(() => Bun.sleep(1_100));
    await ctx.close();
    const steps = lines.filter((l) => l.msg === 'closing').map((l) => l.step);
    expect(steps).toEqual(['registered closer 1', 'background loops', 'backtest jobs', 'stream hub', 'stream caps', 'event bus', 'worker pool', 'market data flush', 'rate-limit store', 'redis', 'auth', 'database']);
    const slow = lines.filter((l) => l.msg === 'closing took long');
    expect(slow.map((l) => l.step)).toEqual(['registered closer 1']);
    expect(slow[0]!.ms).toBeGreaterThanOrEqual(1_000);
  });
});
