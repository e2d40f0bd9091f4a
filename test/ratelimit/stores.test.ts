import { afterAll, describe, expect, it } from 'bun:test';
import { createLogger } from '../../src/log';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../src/ratelimit';
import { RedisLink } from '../../src/redis/link';

const stores: [string, () => { store: RateLimitStore; close: () => void }][] = [['memory', () => ({ store: new MemoryRateLimitStore(), close: () => {} })]];
if (process.env.REDIS_URL) {
  stores.push([
    'redis',
    () => {
      const link = new RedisLink({ url: process.env.REDIS_URL!, keyPrefix: `breakline:test:${crypto.randomUUID()}:`, log: createLogger('silent') });
      return { store: new RedisRateLimitStore(link), close: () => link.close() };
    },
  ]);
}

for (const [name, make] of stores) {
  describe(`${name} rate-limit store`, () => {
    const { store, close } = make();
    afterAll(async () => {
      await store.close();
      close();
    });

    it('admits exactly the quota among 200 concurrent hits', async () => {
      const decisions = await Promise.all(Array.from({ length: 200 }, () => store.hit('client-a', 37, 60_000)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(37);
      expect(Math.min(...decisions.map((d) => d.remaining))).toBe(0);
    });

    it('counts clients apart', async () => {
      const d = await store.hit('client-b', 5, 60_000);
      expect(d).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
    });

    it('starts a new window when the old one ends', async () => {
      const t0 = 1_000_000_000_000; // a window boundary for 10 s windows
      expect((await store.hit('client-c', 1, 10_000, { now: t0 })).allowed).toBe(true);
      const refused = await store.hit('client-c', 1, 10_000, { now: t0 + 9_999 });
      expect(refused.allowed).toBe(false);
      expect(refused.resetMs).toBe(1);
      expect((await store.hit('client-c', 1, 10_000, { now: t0 + 10_000 })).allowed).toBe(true);
    });

    it('keeps a long window’s count while shorter windows come and go', async () => {
      const t0 = 3_000_000_000_000; // a boundary of both 1 min and 1 h windows
      expect((await store.hit('hourly', 2, 3_600_000, { now: t0 })).remaining).toBe(1);
      // Other clients' minute windows start and end meanwhile.
      for (let minute = 1; minute <= 3; minute++) await store.hit(`minutely-${minute}`, 5, 60_000, { now: t0 + minute * 60_000 });
      expect(await store.hit('hourly', 2, 3_600_000, { now: t0 + 4 * 60_000 })).toMatchObject({ allowed: true, remaining: 0 });
      expect((await store.hit('hourly', 2, 3_600_000, { now: t0 + 5 * 60_000 })).allowed).toBe(false);
    });

    it('peeks at the window without counting', async () => {
      const t0 = 2_000_000_000_000;
      expect(await store.peek('client-d', 3, 60_000, t0)).toMatchObject({ allowed: true, limit: 3, remaining: 3 });
      await store.hit('client-d', 3, 60_000, { now: t0 });
      for (let i = 0; i < 5; i++) expect(await store.peek('client-d', 3, 60_000, t0 + 1)).toMatchObject({ remaining: 2 });
      expect(await store.hit('client-d', 3, 60_000, { now: t0 + 2 })).toMatchObject({ allowed: true, remaining: 1 });
    });

    it('answers ping', async () => {
      await store.ping();
    });
  });
}
