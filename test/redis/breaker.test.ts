/**
 * The request path's breaker (redis/breaker): once a dependency failed, no
 * call reaches it — and none waits for the background probe — until the probe
 * answers. Asserted on counts and settlement order, never on time.
 */
import { describe, expect, it } from 'bun:test';
import { BrokenCircuitError, FailFastBreaker } from '../../src/redis/breaker';
import { until } from '../helpers/until';

describe('fail-fast breaker', () => {
  it('refuses every call at once after a failure, without holding them for the probe, and closes when the probe answers', async () => {
    let calls = 0;
    let probes = 0;
    let answerProbe: (() => void) | undefined;
    const breaker = new FailFastBreaker({
      timeoutMs: 50,
      probeEveryMs: 5,
      probe: () => {
        probes++;
        return new Promise<void>((resolve) => (answerProbe = resolve)); // hangs until the test answers it
      },
    });
    // The dependency hangs: the first call times out and opens the breaker.
    const first = await breaker.run(() => {
      calls++;
      return new Promise(() => {});
    }).catch((e: unknown) => e);
    expect(String(first)).toContain('no answer within 50 ms');
    expect(breaker.isOpen).toBe(true);
    await until('the probe to be in flight', () => probes === 1);
    // While the probe hangs, 100 calls are refused, all settled before it is answered, none reaching the dependency.
    const refused = await Promise.allSettled(Array.from({ length: 100 }, () => breaker.run(() => ++calls)));
    expect(refused.every((r) => r.status === 'rejected' && r.reason instanceof BrokenCircuitError)).toBe(true);
    expect(calls).toBe(1);
    expect(probes).toBe(1);
    answerProbe!();
    await until('the breaker to close', () => !breaker.isOpen);
    expect(await breaker.run(() => ++calls)).toBe(2);
    breaker.close();
  });

  it('keeps probing while the dependency stays down', async () => {
    let probes = 0;
    const probe = async () => {
      if (probes++ < 3) throw new Error('refused');
    };
    const breaker = new FailFastBreaker({ timeoutMs: 50, probeEveryMs: 5, probe });
    breaker.trip(new Error('connection closed'));
    expect(breaker.reason).toBe('connection closed');
    await until('three failed probes and a good one', () => !breaker.isOpen);
    expect(probes).toBe(4);
    breaker.close();
  });
});
