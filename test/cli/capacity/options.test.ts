import { describe, expect, it } from 'bun:test';
import { capacityArguments, isLoopback, parseTarget } from '../../../src/cli/capacity/options';
import { buildProfile, documentedOperations, undocumented } from '../../../src/cli/capacity/profile';
import { createTestContext } from '../../helpers/app';

const options = (args: string[]) => {
  const parsed = capacityArguments(args);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

describe('breakline capacity: arguments', () => {
  it('reads a target of requests, streams and p99', () => {
    expect(parseTarget('rps=3000,sse=20000,p99=50ms')).toEqual({ ok: true, value: { rps: 3000, sse: 20000, p99Ms: 50 } });
    expect(parseTarget('sse=100, p99=0.2s')).toEqual({ ok: true, value: { rps: 0, sse: 100, p99Ms: 200 } });
    expect(parseTarget('p99=50ms').ok).toBe(false);
    expect(parseTarget('rps=fast').ok).toBe(false);
  });

  it('refuses a URL that is not loopback unless --allow-remote is given', () => {
    const refused = capacityArguments(['--url', 'https://breakline.example.com']);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain('--allow-remote');
    expect(options(['--url', 'https://breakline.example.com', '--allow-remote']).url).toBe('https://breakline.example.com');
    expect(options(['--url', 'http://127.0.0.2:3000/']).url).toBe('http://127.0.0.2:3000');
    expect(isLoopback(new URL('http://[::1]:3000'))).toBe(true);
    expect(isLoopback(new URL('http://10.0.0.1'))).toBe(false);
  });

  it('bounds the run: at least 10 s in all and 1..50 steps', () => {
    expect(capacityArguments(['--time-limit', '5']).ok).toBe(false);
    expect(capacityArguments(['--steps', '0']).ok).toBe(false);
    expect(capacityArguments(['--steps', '51']).ok).toBe(false);
    expect(options([]).timeLimitSeconds).toBe(300);
  });

  it('takes the p99 to hold from the target unless --p99 says otherwise', () => {
    expect(options(['--target', 'rps=10,p99=80ms']).p99Ms).toBe(80);
    expect(options(['--target', 'rps=10,p99=80ms', '--p99', '20ms']).p99Ms).toBe(20);
  });

  it('refuses settings for a local instance when the target is a URL', () => {
    expect(capacityArguments(['--url', 'http://127.0.0.1:3000', '--env', 'POOL_SIZE=2']).ok).toBe(false);
    expect(options(['--env', 'POOL_SIZE=2']).env).toEqual({ POOL_SIZE: '2' });
  });
});

describe('breakline capacity: the profile', () => {
  it('is a dashboard of breakouts by default, with {symbol} cycling through the symbols', () => {
    const profile = buildProfile(options([]));
    if (!profile.ok) throw new Error(profile.error);
    expect(profile.value.requests.map((r) => r.label)).toEqual(['/api/breakouts', '/api/snapshot', '/api/bars', '/api/scorecard', '/api/health', 'graphql:1']);
    expect(profile.value.requests[1]!.paths).toContain('/api/snapshot?symbol=MSFT');
    expect(profile.value.sse.clients).toBe(500);
  });

  it('reads a profile file, flags over it', () => {
    const file = JSON.stringify({ rps: 100, routes: [{ path: '/api/breakouts', weight: 2 }], sse: { clients: 10, channels: ['breakouts.new'] } });
    const profile = buildProfile(options(['--profile', 'p.json', '--sse', '20']), () => file);
    if (!profile.ok) throw new Error(profile.error);
    expect(profile.value.rps).toBe(100);
    expect(profile.value.requests).toHaveLength(1);
    expect(profile.value.sse).toEqual({ clients: 20, channels: ['breakouts.new'], symbols: [], auth: false });
  });

  it('says what is wrong with a profile file', () => {
    const bad = buildProfile(options(['--profile', 'p.json']), () => JSON.stringify({ rps: -1 }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('rps');
    const stream = buildProfile(options(['--route', '/api/stream?channels=breakouts.new', '--rps', '5']));
    expect(stream.ok).toBe(false);
    const authNoKey = buildProfile(options(['--profile', 'p.json']), () => JSON.stringify({ rps: 5, routes: [{ path: '/api/me', auth: true }] }));
    expect(authNoKey.ok).toBe(false);
  });

  it("checks the routes against the target's OpenAPI document: GET routes it documents, POST only to /api/graphql", async () => {
    const ctx = await createTestContext();
    try {
      const documented = documentedOperations(await (await ctx.request('/openapi/json')).json());
      const fine = buildProfile(options([]));
      if (!fine.ok) throw new Error(fine.error);
      expect(undocumented(fine.value, documented)).toEqual([]);
      const wrong = buildProfile(options(['--route', '/api/nothing-here', '--route', '/api/keys', '--rps', '5']));
      if (!wrong.ok) throw new Error(wrong.error);
      const problems = undocumented(wrong.value, documented);
      expect(problems[0]).toContain('GET /api/nothing-here is not a documented GET route');
      expect(problems[1]).toContain('GET /api/keys needs a session');
    } finally {
      await ctx.close();
    }
  });
});
