/**
 * The instances' idle timeout and the reference balancer's agree
 * (docs/operations.md): Bun closes a connection silent for
 * SERVER_IDLE_SECONDS — a request whose answer is still being made included —
 * and deploy/haproxy.cfg's `timeout server` gives up on an instance after its
 * own time. Were the instance's shorter, a slow cold read would end in an
 * empty reply the balancer cannot tell from a crash; both must also outlast a
 * quiet stream's ping, or idle streams would be cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { createApp, SERVER_IDLE_SECONDS } from '../../src/app';
import { createTestContext, type TestContext } from '../helpers/app';

const haproxy = readFileSync(new URL('../../deploy/haproxy.cfg', import.meta.url), 'utf8');
const seconds = (name: string): number => {
  const [, value, unit] = new RegExp(`^\\s*timeout ${name}\\s+(\\d+)(ms|s|m)\\s*$`, 'm').exec(haproxy) ?? [];
  if (value === undefined) throw new Error(`deploy/haproxy.cfg has no timeout ${name}`);
  return Number(value) * { ms: 0.001, s: 1, m: 60 }[unit as 'ms' | 's' | 'm'];
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('idle timeouts', () => {
  it('gives the server Bun builds the instances’ idle timeout, the same as the balancer’s timeout server', () => {
    const app = createApp(ctx.services);
    expect(app.config.serve?.idleTimeout).toBe(SERVER_IDLE_SECONDS);
    expect(seconds('server')).toBe(SERVER_IDLE_SECONDS);
  });

  it('outlasts a quiet stream’s ping on both sides', () => {
    const pingSeconds = ctx.services.config.stream.pingMs / 1000;
    expect(SERVER_IDLE_SECONDS).toBeGreaterThan(pingSeconds);
    expect(seconds('client')).toBeGreaterThan(pingSeconds);
  });
});
