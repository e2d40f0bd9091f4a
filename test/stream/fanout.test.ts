/**
 * Fan-out across instances through Redis Streams (CI's PostgreSQL + Redis
 * pass; skipped without REDIS_URL): app contexts sharing one database and one
 * REDIS_KEY_PREFIX play separate instances of one deployment, each with its
 * own hub and port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { dropKeys } from '../helpers/app';
import { deployment, type Instance } from '../helpers/instances';
import { RecordingSource } from '../helpers/sse';
import { until } from '../helpers/until';

const STATE = (n: number) => ({ signalId: `EVT-${n}`, symbol: 'AAPL', from: 'forming' as const, to: 'triggered' as const, price: n, at: '2026-11-20T18:00:00.000Z' });
const ENV = { SSE_RETRY_MS: '20', SSE_PING_MS: '0', RATE_LIMIT_QUOTA: '100000' };

describe.skipIf(!process.env.REDIS_URL)('two instances on one Redis', () => {
  let cluster: Awaited<ReturnType<typeof deployment>>;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    cluster = await deployment({ env: ENV }, 2);
    [a, b] = cluster.instances as [Instance, Instance];
  });
  afterAll(async () => {
    await cluster.close();
    await dropKeys(process.env.REDIS_URL!, cluster.keyPrefix);
  });

  it('delivers an event published on either instance to the clients of both, exactly once, under one id', async () => {
    const onA = new RecordingSource(`${a.server.base}/api/stream?channels=breakouts.state_change`);
    const onB = new RecordingSource(`${b.server.base}/api/stream?channels=breakouts.state_change`);
    await until('both hellos', () => onA.of('hello').length === 1 && onB.of('hello').length === 1);
    for (let n = 0; n < 200; n++) {
      (n % 2 === 0 ? a : b).ctx.services.bus.publish('breakouts.state_change', STATE(n));
      if (n % 20 === 19) await Bun.sleep(2);
    }
    await until('200 events on both', () => onA.of('breakouts.state_change').length >= 200 && onB.of('breakouts.state_change').length >= 200);
    await Bun.sleep(100); // nothing more arrives
    const seenA = onA.of('breakouts.state_change');
    const seenB = onB.of('breakouts.state_change');
    expect(seenA).toHaveLength(200);
    expect(seenB.map((e) => [e.id, e.data.price])).toEqual(seenA.map((e) => [e.id, e.data.price])); // same order, same ids
    expect(new Set(seenA.map((e) => e.data.price))).toEqual(new Set(Array.from({ length: 200 }, (_, n) => n)));
    expect(seenA.every((e) => /^\d+$/.test(e.id))).toBe(true); // log positions
    onA.close();
    onB.close();
  });

  it('lets a client resume on the other instance with the id the first one gave it', async () => {
    const first = new RecordingSource(`${a.server.base}/api/stream?channels=breakouts.state_change`);
    await until('hello', () => first.of('hello').length === 1);
    for (let n = 1000; n < 1050; n++) a.ctx.services.bus.publish('breakouts.state_change', STATE(n));
    await until('50 events', () => first.of('breakouts.state_change').length === 50);
    const lastSeen = first.of('breakouts.state_change').at(-1)!.id;
    first.close();
    for (let n = 1050; n < 1100; n++) a.ctx.services.bus.publish('breakouts.state_change', STATE(n));
    const resumed = new RecordingSource(`${b.server.base}/api/stream?channels=breakouts.state_change`, { 'last-event-id': lastSeen });
    await until('the 50 missed', () => resumed.of('breakouts.state_change').length === 50);
    expect(resumed.of('breakouts.state_change').map((e) => e.data.price)).toEqual(Array.from({ length: 50 }, (_, n) => 1050 + n));
    expect(resumed.of('reset')).toEqual([]);
    resumed.close();
  });

  it('starts a new instance’s replay buffer from the stream, so a client resumes there too', async () => {
    const first = new RecordingSource(`${a.server.base}/api/stream?channels=breakouts.state_change`);
    await until('hello', () => first.of('hello').length === 1);
    for (let n = 2000; n < 2010; n++) a.ctx.services.bus.publish('breakouts.state_change', STATE(n));
    await until('10 events', () => first.of('breakouts.state_change').length === 10);
    const lastSeen = first.of('breakouts.state_change')[4]!.id; // it saw 2000..2004, then went away
    first.close();
    const c = await cluster.add(); // booted after those events were published
    const resumed = new RecordingSource(`${c.server.base}/api/stream?channels=breakouts.state_change`, { 'last-event-id': lastSeen });
    await until('the 5 missed', () => resumed.of('breakouts.state_change').length === 5);
    expect(resumed.of('breakouts.state_change').map((e) => e.data.price)).toEqual([2005, 2006, 2007, 2008, 2009]);
    expect(resumed.of('reset')).toEqual([]);
    resumed.close();
  });
});
