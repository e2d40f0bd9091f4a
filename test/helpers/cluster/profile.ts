/**
 * @module test/helpers/cluster/profile
 * How big a run of the cluster suite is. `CLUSTER_SUITE=full` (the default:
 * `npm run test:cluster`, bench/cluster) is issue 26's suite: six scenarios,
 * outages of 20 s, the 16-symbol market. `CLUSTER_SUITE=ci` is CI's step
 * (.ci/run), which must stay near three minutes on two cores: the scenarios
 * marked `ci` (the fresh start, the leader's kill -9, PostgreSQL stopped),
 * outages of 8 s (past the 5 s lease check and the pool's reconnect back-off,
 * so the instances do lose the database), and a 6-symbol market, so the boot
 * replay is a third as long. Every promise is asserted the same in both.
 */

export type SuiteSize = 'full' | 'ci';

export interface Profile {
  size: SuiteSize;
  /** How long PostgreSQL and Redis stay down (issue 26: 20 s). */
  outageSeconds: number;
  /** How many of CLUSTER_SYMBOLS the market has (the first ones: the benchmark SPY always among them). */
  symbols: number;
  /** How long deployment B runs beside A once both serve. */
  sideBySideMs: number;
}

const PROFILES: Record<SuiteSize, Profile> = {
  full: { size: 'full', outageSeconds: 20, symbols: 16, sideBySideMs: 15_000 },
  ci: { size: 'ci', outageSeconds: 8, symbols: 6, sideBySideMs: 8_000 },
};

/** The profile `CLUSTER_SUITE` names; anything but `ci` and `full` is refused, so a typo never runs a different suite quietly. */
export function suiteProfile(value: string | undefined): Profile {
  const size = value === undefined || value === '' ? 'full' : value;
  if (size !== 'full' && size !== 'ci') throw new Error(`CLUSTER_SUITE must be "full" or "ci", not "${value}"`);
  return PROFILES[size];
}

export const PROFILE = suiteProfile(process.env.CLUSTER_SUITE);
