/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type SignalBreakoutState =
  | 'confirmed'
  | 'expired'
  | 'failed'
  | 'forming'
  | 'stopped'
  | 'target_hit'
  | 'triggered';

export type SignalPatternType =
  | 'ascending_triangle'
  | 'bear_flag'
  | 'bull_flag'
  | 'cup_with_handle'
  | 'descending_triangle'
  | 'donchian_55'
  | 'double_bottom'
  | 'flat_base'
  | 'gap_and_go'
  | 'high_tight_flag'
  | 'new_high_52w'
  | 'range_breakdown'
  | 'range_breakout'
  | 'vcp';

export type SignalScoreBand =
  | 'elite'
  | 'ignore'
  | 'strong'
  | 'watchlist';

export type TopSignalsQueryVariables = Exact<{
  first?: number | null | undefined;
  timeframe?: string | null | undefined;
  after?: string | null | undefined;
}>;


export type TopSignalsQuery = { signals: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { id: string, symbol: string, patternType: SignalPatternType, finalScore: number, scoreBand: SignalScoreBand, breakoutState: SignalBreakoutState } }> } };

export type SignalWithSnapshotQueryVariables = Exact<{
  id: string;
}>;


export type SignalWithSnapshotQuery = { signal: { id: string, symbol: string, finalScore: number, snapshot: { price: number, changePercent: number } | null } | null };

export type NewBreakoutsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type NewBreakoutsSubscription = { breakoutNew: { signal: { id: string, symbol: string, finalScore: number } } | null };
