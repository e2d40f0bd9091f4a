import { describe, expect, it } from 'bun:test';
import { fitLine, plan, saturated, type InstanceLimits, type StepFigures } from '../../../src/cli/capacity/model';
import { kneeOf, unitCosts } from '../../../src/cli/capacity/ramp';
import type { ResourceUse } from '../../../src/cli/capacity/resources';

const step = (s: Partial<StepFigures>): StepFigures => ({ rps: 0, sseClients: 0, deliveriesPerClient: 0, knee: null, ...s });
const limits: InstanceLimits = { cores: 4, poolThreads: 4, sseMaxConnections: 10_000, dbPoolMax: 10, dbMaxConnections: 100, postgres: true };

describe('breakline capacity: the plan', () => {
  it('fits a least-squares line with its R²', () => {
    // y = 3 + 2x exactly, then with one point off the line.
    expect(fitLine([1, 2, 3], [5, 7, 9])).toEqual({ intercept: 3, slope: 2, r2: 1 });
    const noisy = fitLine([0, 1, 2, 3], [0, 1, 2, 4])!;
    expect(noisy.slope).toBeCloseTo(1.3, 10); // Σ(x−x̄)(y−ȳ)/Σ(x−x̄)² = 6.5/5
    expect(noisy.r2).toBeLessThan(1);
    expect(fitLine([2, 2], [1, 3])).toBeUndefined();
  });

  it('sizes the target by the resource that needs most instances, naming the setting to change', () => {
    // 1,000 µs of CPU per request on 4 cores used up to 80% (no knee): 3,200 req/s an instance; 10,000 req/s needs 3.125 → 4.
    const steps = [step({ rps: 500, cpuUsPerRequest: 1000, cpuCores: 0.5 }), step({ rps: 1000, cpuUsPerRequest: 1000, cpuCores: 1 })];
    const result = plan(steps, limits, { rps: 10_000, sse: 0 });
    const cpu = result.needs.find((n) => n.resource === 'CPU')!;
    expect(cpu.instances).toBeCloseTo(10_000 * 1000 / (4 * 0.8 * 1e6), 10);
    // The last step that held carried 1,000 req/s: 10 instances by the measured knee, which binds.
    expect(result.instances).toBe(10);
    expect(result.caveats.some((c) => c.includes('no knee'))).toBe(true);
  });

  it('names the event loop when it ran out at the knee, and POOL_SIZE is not the advice', () => {
    const steps = [step({ rps: 1000, loopUsPerRequest: 700, loopCores: 0.7 }), step({ rps: 1400, loopUsPerRequest: 700, loopCores: 0.98, knee: 'p99 of /api/breakouts 80 ms > 50 ms' })];
    const result = plan(steps, limits, { rps: 4000, sse: 0 });
    expect(result.binding).toBe('event loop');
    expect(result.advice).toContain('instances per host');
    expect(saturated(steps[1]!, limits)).toBe('event loop');
  });

  it('counts streams against SSE_MAX_CONNECTIONS and database connections against max_connections', () => {
    const steps = [step({ sseClients: 5000, deliveriesPerClient: 1 })];
    const result = plan(steps, { ...limits, dbPoolMax: 49 }, { rps: 0, sse: 30_000 });
    expect(result.needs.find((n) => n.resource === 'stream cap')!.instances).toBe(3);
    // 6 instances by the measured 5,000 streams; 100 ÷ (49 + 1) = 2 instances at most.
    expect(result.instances).toBe(6);
    expect(result.binding).toBe('database connections');
  });

  it('says it cannot size a load the run never offered', () => {
    const result = plan([step({ rps: 100 })], limits, { rps: 100, sse: 1000 });
    expect(result.instances).toBeUndefined();
  });
});

const use = (u: Partial<ResourceUse>): ResourceUse => ({ seconds: 10, ...u });

describe('breakline capacity: a step', () => {
  it('is past the knee at the first p99 over the target, error, or rate not carried', () => {
    const route = { label: '/api/breakouts', offeredRps: 100, requests: 1000, rps: 100, p50Ms: 2, p99Ms: 10, p999Ms: 20, statuses: { 200: 1000 }, failed: 0, timeouts: 0 };
    const sse = { clients: 0, deliveriesPerSecond: 0 };
    expect(kneeOf({ routes: [route], errors: {}, offeredRps: 100, sse }, 50)).toBeNull();
    expect(kneeOf({ routes: [{ ...route, p99Ms: 60 }], errors: {}, offeredRps: 100, sse }, 50)).toContain('p99 of /api/breakouts 60 ms');
    expect(kneeOf({ routes: [route], errors: { 503: 2 }, offeredRps: 100, sse }, 50)).toContain('503 ×2');
    expect(kneeOf({ routes: [{ ...route, rps: 80 }], errors: {}, offeredRps: 100, sse }, 50)).toContain('carried 80 of 100');
    expect(kneeOf({ routes: [], errors: {}, offeredRps: 0, sse: { clients: 10, deliveriesPerSecond: 10, p99Ms: 70 } }, 50)).toContain('stream delivery p99 70 ms');
  });

  it("charges the streams' window beyond idle to deliveries, and the mixed window beyond the streams' to requests", () => {
    // Idle 0.1 CPU-s in 10 s; streams 1.1 CPU-s in 10 s (1 s beyond idle over 10,000 deliveries: 100 µs each);
    // mixed 3.1 CPU-s in 10 s (2 s beyond the streams' rate over 1,000 requests: 2,000 µs each).
    const costs = unitCosts(use({ cpuSeconds: 0.1 }), use({ cpuSeconds: 1.1 }), use({ cpuSeconds: 3.1 }), { requests: 1000, deliveries: 10_000, clients: 100 });
    expect(costs.cpuUsPerDelivery).toBeCloseTo(100, 6);
    expect(costs.cpuUsPerRequest).toBeCloseTo(2000, 6);
    expect(costs.cpuUsPerClientSecond).toBeUndefined();
    expect(costs.loopUsPerRequest).toBeUndefined(); // the main thread is not known (a remote server)
  });
});
