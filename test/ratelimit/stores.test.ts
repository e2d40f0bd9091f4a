import { afterAll, describe, expect, it } from 'bun:test';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../src/ratelimit';

const stores: [string, () => RateLimitStore][] = [['memory', () => new MemoryRateLimitStore()]];
if (process.env.REDIS_URL) {
  stores.push(['redis', () => new RedisRateLimitStore(process.env.REDIS_URL!, `breakline:test:${crypto.randomUUID()}:`)]);
}

for (const [name, make] of stores) {
  describe(`${name} rate-limit store`, () => {
    const store = make();
    afterAll(() => store.close());

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
