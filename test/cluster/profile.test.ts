/**
 * The suite's sizes (test/helpers/cluster/profile): CI's run is the fresh
 * start first (it brings the cluster up) and the scenarios marked for it,
 * with shorter outages; a mistyped size is refused rather than run as the
 * default.
 */
import { describe, expect, it } from 'bun:test';
import { suiteProfile } from '../helpers/cluster/profile';
import { SCENARIOS } from '../helpers/cluster/scenarios';

describe('cluster suite sizes', () => {
  it('runs the full suite unless told otherwise: 20 s outages (issue 26) and the 16-symbol market', () => {
    expect(suiteProfile(undefined)).toMatchObject({ size: 'full', outageSeconds: 20, symbols: 16 });
    expect(suiteProfile('')).toMatchObject({ size: 'full' });
  });

  it('shortens the outages and the market for CI', () => {
    const ci = suiteProfile('ci');
    expect(ci.outageSeconds).toBeLessThan(suiteProfile('full').outageSeconds);
    expect(ci.symbols).toBeLessThan(suiteProfile('full').symbols);
  });

  it('refuses a size it does not know', () => {
    expect(() => suiteProfile('quick')).toThrow('CLUSTER_SUITE must be "full" or "ci"');
  });

  it("marks the fresh start, the leader's kill -9 and the PostgreSQL outage for CI, the fresh start first", () => {
    const ci = SCENARIOS.filter((s) => s.ci);
    expect(ci[0]).toBe(SCENARIOS[0]!);
    expect(ci[0]!.freshStart).toBe(true);
    expect(ci.map((s) => s.name.split(' ').slice(0, 2).join(' '))).toEqual(['fresh database,', 'kill -9', 'PostgreSQL stopped']);
  });
});
