/**
 * The socket's address (`server.requestIP`, about 0.65 µs in Bun) is asked
 * only for the bucket of a caller without a credential, and once a request.
 */
import { describe, expect, it } from 'bun:test';
import type { Principal } from '../../src/auth/principal';
import { createLogger } from '../../src/log';
import { rateLimiter } from '../../src/plugins/rate-limit';
import type { HeaderSet } from '../../src/plugins/step';
import { MemoryRateLimitStore } from '../../src/ratelimit';

const tiers = { free: 100, pro: 1000, enterprise: 10000 } as const;

describe('the rate limit asks for the client address only when the bucket is per IP', () => {
  it('never for a credential, once for an anonymous request, in the ordinary and a classed quota', async () => {
    let asked = 0;
    const server = {
      requestIP: () => {
        asked++;
        return { address: '10.0.0.7' };
      },
    };
    const principal: Principal = { userId: 'usr_1', tier: 'pro', kind: 'key', keyId: 'key_1', scopes: ['read'] };
    const { general, classed } = rateLimiter({
      store: new MemoryRateLimitStore(),
      quota: 50,
      windowSeconds: 60,
      tierQuotas: tiers,
      classes: { costly: { quota: 5, tierQuotas: tiers, windowSeconds: 60 }, explain: { quota: 5, tierQuotas: tiers, windowSeconds: 60 } },
      trustProxy: null,
      log: createLogger('silent'),
      principalOf: (request) => (request.headers.has('authorization') ? principal : null),
    });
    const keyed = () => new Request('http://localhost/api/bars', { headers: { authorization: 'Bearer k' } });
    const anonymous = () => new Request('http://localhost/api/bars');
    const answered = async (count: (set: HeaderSet) => void | Promise<void>) => {
      const set: HeaderSet = { headers: {} };
      await count(set);
      return set.headers['x-ratelimit-limit'];
    };

    expect(await answered((set) => general(keyed(), server, set, '/api/bars'))).toBe('1000');
    expect(await answered((set) => classed('costly', keyed(), server, set))).toBe('1000');
    expect(asked).toBe(0);
    expect(await answered((set) => general(anonymous(), server, set, '/api/bars'))).toBe('50');
    expect(asked).toBe(1);
    expect(await answered((set) => classed('costly', anonymous(), server, set))).toBe('5');
    expect(asked).toBe(2);
  });
});
