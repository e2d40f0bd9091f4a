import { describe, expect, it } from 'bun:test';
import type { Signal } from '../../src/domain/signal';
import { evaluateAlerts } from '../../src/jobs/alerts';
import { alertsOfSymbols, mergeAlerts } from '../../src/kernels/signal-view';
import { alerts } from '../../src/db/schema';
import type { BreakoutsResponse } from '../../src/modules/signals/model';
import { createTestContext } from '../helpers/app';
import { makeSignal } from '../helpers/signal';

/** X's strong triggered flat base of 2026-11-20, changed by `over`. */
const signal = (over: Partial<Signal>): Signal => makeSignal({ symbol: 'X', id: 'X-flat_base-2026-11-20T00:00:00.000Z', detectedAt: '2026-11-20T00:00:00.000Z', ...over });

describe('alert policy (DESIGN §4)', () => {
  it('makes a strong triggered signal a candidate', () => {
    const r = evaluateAlerts([signal({})], { regime: 'risk_on' });
    expect(r.candidates).toHaveLength(1);
    expect(r.summary).toEqual({ eligible: 1, candidates: 1, blocked: 0, byReason: {} });
  });

  it('considers forming signals only within 2% of the trigger, and only strong or elite bands', () => {
    const r = evaluateAlerts(
      [
        signal({ symbol: 'A', id: 'A-1', breakoutState: 'forming', distancePct: -1.5 }),
        signal({ symbol: 'B', id: 'B-1', breakoutState: 'forming', distancePct: -3 }),
        signal({ symbol: 'C', id: 'C-1', scoreBand: 'watchlist' }),
        signal({ symbol: 'D', id: 'D-1', scoreBand: 'elite', breakoutState: 'confirmed' }),
      ],
      { regime: 'neutral' },
    );
    expect(r.summary.eligible).toBe(2);
    expect(r.candidates).toHaveLength(2);
  });

  it('blocks with every reason that applies', () => {
    const r = evaluateAlerts([signal({ distancePct: 6.2, avgDollarVolume: 5_000_000 })], {
      regime: 'risk_off',
      earningsInTradingDays: () => 3,
      recentAlerts: new Map([['X', new Set(['X-vcp-2026-11-18T00:00:00.000Z'])]]),
    });
    expect(r.candidates).toHaveLength(0);
    expect(r.blocked[0]!.reasons).toEqual([
      'extended 6.2% past the trigger (max 5%)',
      'average dollar volume $5.0M below the $20M floor',
      'long setup in a risk-off market',
      'earnings in 3 trading days',
      'X already alerted within 72 hours (X-vcp-2026-11-18T00:00:00.000Z)',
    ]);
    expect(r.summary.byReason).toEqual({ extended: 1, illiquid: 1, regime: 1, earnings: 1, cooldown: 1 });
  });

  it('does not block a short in a risk-off market, nor earnings after the window', () => {
    const r = evaluateAlerts([signal({ direction: 'short' })], { regime: 'risk_off', earningsInTradingDays: () => 6 });
    expect(r.candidates).toHaveLength(1);
  });

  it('lets the alerted signal itself stay a candidate, and blocks a second signal of the same symbol', () => {
    const first = signal({});
    const second = signal({ id: 'X-vcp-2026-11-20T00:00:00.000Z', patternType: 'vcp', finalScore: 72 });
    const r = evaluateAlerts([first, second], { regime: 'neutral', recentAlerts: new Map([['X', new Set([first.id])]]) });
    expect(r.candidates).toEqual([first]);
    expect(r.blocked).toEqual([{ signal: second, reasons: [`X already alerted within 72 hours (${first.id})`], codes: ['cooldown'] }]);
    // Without any log, the better-ranked signal of the evaluation takes the symbol.
    const fresh = evaluateAlerts([first, second], { regime: 'neutral' });
    expect(fresh.candidates).toEqual([first]);
    expect(fresh.summary.byReason).toEqual({ cooldown: 1 });
  });

  it('gives the verdicts of the whole list when split by symbol and merged again (every rule reads one signal or one symbol)', () => {
    const list = [
      signal({ symbol: 'A', id: 'A-1', finalScore: 90 }),
      signal({ symbol: 'B', id: 'B-1', finalScore: 85, distancePct: 6 }),
      signal({ symbol: 'A', id: 'A-2', finalScore: 80 }),
      signal({ symbol: 'C', id: 'C-1', finalScore: 75, avgDollarVolume: 1_000_000 }),
    ];
    const whole = evaluateAlerts(list, { regime: 'neutral' });
    const ab = alertsOfSymbols(whole, new Set(['A', 'B']));
    expect(ab.summary).toEqual({ eligible: 3, candidates: 1, blocked: 2, byReason: { extended: 1, cooldown: 1 } });
    const c = evaluateAlerts(list.filter((s) => s.symbol === 'C'), { regime: 'neutral' });
    expect(mergeAlerts(c, ab)).toEqual(whole);
  });
});

describe('alert cooldown across persisted scans', () => {
  it('logs each run\'s candidates and blocks another signal of a symbol alerted within 72 hours', async () => {
    const ctx = await createTestContext();
    try {
      const first = (await ctx.json<BreakoutsResponse>('/api/breakouts?limit=200')).body;
      expect(first.alertThresholds.cooldownCheck).toStartWith('applied');
      expect(first.alertCandidates.length).toBeGreaterThan(0);
      const asOf = first.asOf!;
      const logged = await ctx.services.scans.recentAlerts('daily', new Date(Date.parse(asOf) - 3_600_000), new Date(asOf));
      expect([...logged.values()].flatMap((ids) => [...ids]).sort()).toEqual(first.alertCandidates.map((c) => c.id).sort());

      // Another signal of the first candidate's symbol was alerted a day earlier.
      const target = first.alertCandidates[0]!;
      const other = `${target.symbol}-donchian_55-2026-11-18T00:00:00.000Z`;
      await ctx.services.database.db.insert(alerts).values({ signalId: other, symbol: target.symbol, timeframe: 'daily', runId: 'run_test', alertedAt: new Date(Date.parse(asOf) - 86_400_000) });
      await ctx.services.runs.persist('daily');
      await Bun.sleep(1100); // past the latest-run cache
      const second = (await ctx.json<BreakoutsResponse>('/api/breakouts?limit=200')).body;
      expect(second.latestPersistedRun!.id).not.toBe(first.latestPersistedRun!.id);
      const blocked = second.alertBlocked.find((b) => b.signal.id === target.id);
      expect(blocked!.reasons).toContain(`${target.symbol} already alerted within 72 hours (${other})`);
      expect(second.alertCandidates.map((c) => c.id)).not.toContain(target.id);
      // The other candidates stay candidates: their own log entries do not block them.
      expect(second.alertCandidates.length).toBe(first.alertCandidates.length - 1);
    } finally {
      await ctx.close();
    }
  });
});
