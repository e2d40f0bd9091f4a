/**
 * State tracking between runs: signals persisted by one run keep moving after
 * they leave the live window. The synthetic market's clock is moved six weeks
 * on between two scans; every recorded change must be a DESIGN §4 transition
 * that continues from the stored state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { BreakoutState } from '../../src/domain/signal';
import { TRANSITIONS } from '../../src/kernels/lifecycle';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import { createTestContext, type TestContext } from '../helpers/app';

let clock = Date.UTC(2026, 8, 1, 21, 0); // 2026-09-01, after the close
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { BARS_CACHE_TTL_SECONDS: '0' }, provider: createSyntheticProvider({ seed: 42, now: () => clock }) });
});
afterAll(() => ctx.close());

describe('tracking persisted signals between runs', () => {
  it('replays the lifecycle of signals that left the live window and records each transition once', async () => {
    const changes: { signalId: string; from: string | null; to: string }[] = [];
    const off = ctx.services.bus.subscribe('breakouts.state_change', (e) => changes.push(e));
    const firstRun = await ctx.services.runs.persist('daily');
    const first = (await ctx.services.scans.latestRun('daily'))!;
    expect(first.id).toBe(firstRun);
    const firstIds = new Set(first.signals.map((s) => s.id));

    clock += 42 * 86_400_000; // six weeks on
    await ctx.services.runs.persist('daily');
    off();
    const second = (await ctx.services.scans.latestRun('daily'))!;
    const secondIds = new Set(second.signals.map((s) => s.id));
    const left = [...firstIds].filter((id) => !secondIds.has(id));
    expect(left.length).toBeGreaterThan(0);

    const moved = changes.filter((c) => left.includes(c.signalId));
    expect(moved.length).toBeGreaterThan(0); // six weeks settle many setups
    for (const c of moved) expect(TRANSITIONS[c.from as BreakoutState]).toContain(c.to as BreakoutState);

    const history = await ctx.services.scans.eventsOf(left);
    const bySignal = new Map<string, typeof history>();
    for (const e of history) bySignal.set(e.signalId, [...(bySignal.get(e.signalId) ?? []), e]);
    for (const events of bySignal.values()) {
      expect(events[0]!.fromState).toBeNull();
      for (let i = 1; i < events.length; i++) expect(events[i]!.fromState).toBe(events[i - 1]!.toState);
    }
    const terminal = new Set(['target_hit', 'stopped', 'failed', 'expired']);
    const settled = [...bySignal.values()].filter((events) => terminal.has(events.at(-1)!.toState));
    expect(settled.length).toBeGreaterThan(0);
  });
});
