/**
 * @module jobs/replay/universe
 * Which symbols a replay scans at each session, and what that does to its
 * figures. Where point-in-time membership is known (`sp500`, from the
 * committed fja05680/sp500 list), the universe at a date is the index as it
 * was that date, intersected with the symbols the data source has; where it is
 * not (today's members, a fixed list), every date scans today's survivors and
 * the description says `survivorshipBias: true` in words a reader understands.
 */
import type { UniverseDescription, UniverseSpec } from '../../domain/replay';
import type { MarketData } from '../../market-data';
import { sp500Membership } from '../../providers/universe/membership';
import { defaultUniverse } from '../scan';

/** A replay's universe: the symbols it may scan, and whether symbol `s` is in it on a session date. */
export interface ReplayUniverse {
  symbols: string[];
  isMember(symbol: string, date: string): boolean;
  /** Whole-range description once the bars are known: `firstBar(symbol)` is the date of its first bar, or null without bars. */
  describe(dates: readonly string[], firstBar: (symbol: string) => string | null): UniverseDescription;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Resolves `spec` against what the data source serves; an unknown symbol in a list is an error naming it. */
export async function replayUniverse(spec: UniverseSpec, marketData: MarketData, from: string, to: string): Promise<ReplayUniverse> {
  const served = await marketData.instruments();
  if (spec.kind === 'symbols') {
    const unknown = spec.symbols.filter((s) => !served.has(s));
    if (unknown.length) throw new RangeError(`replay: the ${marketData.provider.name} data source has no ${unknown.join(', ')}`);
    const symbols = [...new Set(spec.symbols)];
    return {
      symbols,
      isMember: () => true,
      describe: () => ({
        kind: 'symbols',
        membership: `a fixed list of ${symbols.length} symbol${symbols.length === 1 ? '' : 's'} chosen when the replay was run`,
        symbols: symbols.length,
        membersWithoutData: 0,
        minCoverage: 1,
        survivorshipBias: true,
        survivorshipNote:
          'Survivorship bias: the replay scans a list of symbols chosen today at every past date. Companies that failed, were taken over or delisted are not on it, so the replayed results can look better than a scan run on those dates would have.',
      }),
    };
  }
  if (spec.kind === 'default') {
    const symbols = await defaultUniverse(marketData);
    return {
      symbols,
      isMember: () => true,
      describe: () => ({
        kind: 'default',
        membership: "today's S&P 500 and Nasdaq-100 members that the data source serves, at every date",
        symbols: symbols.length,
        membersWithoutData: 0,
        minCoverage: 1,
        survivorshipBias: true,
        survivorshipNote:
          "Survivorship bias: the replay scans today's S&P 500 and Nasdaq-100 members at every past date. Companies that were in the indexes then but have since left them (often after falling hard, or when taken over) are missing, so the replayed results look better than a scan run on those dates would have.",
      }),
    };
  }
  const membership = sp500Membership();
  const members = membership.membersBetween(from, to);
  const symbols = members.filter((s) => served.has(s));
  return {
    symbols,
    isMember: (symbol, date) => membership.isMember(symbol, date),
    describe(dates, firstBar) {
      const withoutData = members.filter((s) => {
        const first = firstBar(s);
        return first === null || !dates.some((d) => d >= first && membership.isMember(s, d));
      });
      let minCoverage = 1;
      // Coverage sampled every 21 sessions (a month): the share of that date's members with a bar by then.
      for (let k = 0; k < dates.length; k += 21) {
        const day = dates[k]!;
        const on = membership.membersOn(day);
        if (on.length === 0) continue;
        const covered = on.filter((s) => {
          const first = firstBar(s);
          return first !== null && first <= day;
        }).length;
        minCoverage = Math.min(minCoverage, covered / on.length);
      }
      const complete = withoutData.length === 0;
      return {
        kind: 'sp500',
        membership: membership.source,
        symbols: members.length - withoutData.length,
        membersWithoutData: withoutData.length,
        minCoverage: Math.round(minCoverage * 1000) / 1000,
        survivorshipBias: !complete,
        survivorshipNote: complete
          ? 'No survivorship bias from the universe: each date scans the S&P 500 as it was on that date, including companies that later left the index.'
          : `Survivorship bias (partial): each date scans the S&P 500 members of that date, but the data source has no prices for ${withoutData.length} of the ${members.length} companies that were members during the replay (mostly since acquired, merged or delisted); on the worst month only ${pct(minCoverage)} of the members could be scanned. The missing companies are disproportionately ones that fell, so the replayed results may still look better than they were.`,
      };
    },
  };
}
