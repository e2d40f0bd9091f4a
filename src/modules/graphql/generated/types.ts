/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A JSON value, as the REST answer carries it (records, unions of objects) */
  JSON: { input: unknown; output: unknown; }
};

export type AlertDispatchedEvent = {
  __typename?: 'AlertDispatchedEvent';
  alertId?: Maybe<Scalars['String']['output']>;
  at?: Maybe<Scalars['String']['output']>;
  rule?: Maybe<Scalars['JSON']['output']>;
  ruleId?: Maybe<Scalars['String']['output']>;
  signalId?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
};

/** Each block reason of the alert policy with the record of the signals it blocked beside those it let through */
export type AlertPolicyRecord = {
  __typename?: 'AlertPolicyRecord';
  /** Per block reason: the signals it blocked, and let through − blocked mean R and same-day lift */
  byReason?: Maybe<Scalars['JSON']['output']>;
  /** Closed daily trades whose signal was alert-eligible when surfaced */
  eligible?: Maybe<Scalars['JSON']['output']>;
  /** Which ledger the figures come from */
  ledger?: Maybe<Scalars['String']['output']>;
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  letThrough?: Maybe<RecordFigures>;
  /** Closed daily trades whose record carries no alert verdict (written before it was kept) */
  withoutVerdict?: Maybe<Scalars['JSON']['output']>;
};

export type AlertRule = {
  __typename?: 'AlertRule';
  channels?: Maybe<AlertRuleChannels>;
  cooldownMinutes?: Maybe<Scalars['JSON']['output']>;
  /** When it was created */
  createdAt?: Maybe<Scalars['String']['output']>;
  direction?: Maybe<Scalars['String']['output']>;
  enabled?: Maybe<Scalars['Boolean']['output']>;
  /** rul_… */
  id?: Maybe<Scalars['String']['output']>;
  minBand?: Maybe<Scalars['String']['output']>;
  minScore?: Maybe<Scalars['Float']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  /** Null → any */
  patternTypes?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  states?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  /** Null when the rule watches a watchlist */
  symbols?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  timeframe?: Maybe<Scalars['String']['output']>;
  /** When it last changed */
  updatedAt?: Maybe<Scalars['String']['output']>;
  watchlistId?: Maybe<Scalars['String']['output']>;
};

export type AlertRuleChannels = {
  __typename?: 'AlertRuleChannels';
  inApp?: Maybe<Scalars['Boolean']['output']>;
  webhook?: Maybe<AlertRuleChannelsWebhook>;
};

export type AlertRuleChannelsWebhook = {
  __typename?: 'AlertRuleChannelsWebhook';
  /** whsec_…: the Standard Webhooks signing secret, shown only when it is made (create, a new URL, rotateSecret) */
  secret?: Maybe<Scalars['String']['output']>;
  url?: Maybe<Scalars['String']['output']>;
};

export type AlertRulePage = {
  __typename?: 'AlertRulePage';
  items?: Maybe<Array<Maybe<AlertRule>>>;
  pagination?: Maybe<PageMeta>;
};

export type ApiKey = {
  __typename?: 'ApiKey';
  /** When the key was created */
  createdAt?: Maybe<Scalars['String']['output']>;
  /** key_… */
  id?: Maybe<Scalars['String']['output']>;
  /** Last authenticated request, to within a minute (written in batches); null when never used */
  lastUsedAt?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  /** The key's first characters (bk_ and 8 more), to recognise it; the rest is never shown again */
  prefix?: Maybe<Scalars['String']['output']>;
  /** When the key was revoked; null while it is active */
  revokedAt?: Maybe<Scalars['String']['output']>;
  /** What the key was given (it acts with those its owner's current tier allows) */
  scopes?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  /** Account tier: free < pro < enterprise */
  tier?: Maybe<Scalars['String']['output']>;
};

export type ApiKeyList = {
  __typename?: 'ApiKeyList';
  /** Your keys, newest first, revoked ones included */
  keys?: Maybe<Array<Maybe<ApiKey>>>;
};

export type BarsResponse = {
  __typename?: 'BarsResponse';
  /** Bars of the page, oldest first (newest last) */
  bars?: Maybe<Array<Maybe<PriceBar>>>;
  pagination?: Maybe<PageMeta2>;
  range?: Maybe<Scalars['String']['output']>;
  /** Where the bars come from: the provider's name, e.g. synthetic, csv, yahoo (additive) */
  source?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  /** Bar timeframe (additive) */
  timeframe?: Maybe<Scalars['String']['output']>;
};

export type BreakoutHistoryResponse = {
  __typename?: 'BreakoutHistoryResponse';
  filters?: Maybe<BreakoutHistoryResponseFilters>;
  items?: Maybe<Array<Maybe<HistorySignal>>>;
  pagination?: Maybe<PageMeta>;
  /** The page (same as items) */
  signals?: Maybe<Array<Maybe<HistorySignal>>>;
};

export type BreakoutHistoryResponseFilters = {
  __typename?: 'BreakoutHistoryResponseFilters';
  pattern?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  timeframe?: Maybe<Scalars['String']['output']>;
};

/** A signal surfaced by a persisted scan for the first time */
export type BreakoutNewEvent = {
  __typename?: 'BreakoutNewEvent';
  signal?: Maybe<BreakoutSignal>;
};

export type BreakoutSignal = {
  __typename?: 'BreakoutSignal';
  /** 50-bar average close × volume, USD */
  avgDollarVolume?: Maybe<Scalars['Float']['output']>;
  breakoutState?: Maybe<Scalars['String']['output']>;
  /** Breakout bar volume ÷ its 50-bar average, once triggered */
  breakoutVolumeRatio?: Maybe<Scalars['Float']['output']>;
  /** Each component in [0, 1], null without data (kernels/scoring weighs them) */
  components?: Maybe<ScoreComponents>;
  /** The calibrated probability that the ledger records a win (target1 before the stop while the lifecycle holds), from the fitted model; judged in /api/scorecard `calibration.confidence` (Brier score and reliability) */
  confidence?: Maybe<Scalars['Float']['output']>;
  detectedAt?: Maybe<Scalars['String']['output']>;
  direction?: Maybe<Scalars['String']['output']>;
  /** Distance of that close beyond the trigger in the setup’s direction, % */
  distancePct?: Maybe<Scalars['Float']['output']>;
  /** How reachable target1 is, as the record shows it: the fitted score (kernels/score-table, fitted on the replayed history 2005–2016) ranks setups by their expected R and chance of a recorded win. It is not edge: out of sample no band beats random entries with the same geometry on the same day (/api/scorecard `edge` says what the current record shows) */
  finalScore?: Maybe<Scalars['Float']['output']>;
  geometry?: Maybe<SignalGeometry>;
  /** SYMBOL-pattern-detectedAt */
  id?: Maybe<Scalars['String']['output']>;
  patternFamily?: Maybe<Scalars['String']['output']>;
  patternType?: Maybe<Scalars['String']['output']>;
  /** Close at the scan */
  price?: Maybe<Scalars['Float']['output']>;
  reasons?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  /** IBD-style RS rank 1–99 in the universe */
  rsRank?: Maybe<Scalars['Float']['output']>;
  /** elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore */
  scoreBand?: Maybe<Scalars['String']['output']>;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  target1?: Maybe<Scalars['Float']['output']>;
  timeframe?: Maybe<Scalars['String']['output']>;
  trendRegime?: Maybe<Scalars['String']['output']>;
  triggerPrice?: Maybe<Scalars['Float']['output']>;
};

export type BreakoutsResponse = {
  __typename?: 'BreakoutsResponse';
  alertBlocked?: Maybe<Array<Maybe<BreakoutsResponseAlertBlocked>>>;
  alertCandidates?: Maybe<Array<Maybe<BreakoutSignal>>>;
  alertSummary?: Maybe<Scalars['JSON']['output']>;
  alertThresholds?: Maybe<Scalars['JSON']['output']>;
  asOf?: Maybe<Scalars['String']['output']>;
  generatedAt?: Maybe<Scalars['String']['output']>;
  items?: Maybe<Array<Maybe<BreakoutSignal>>>;
  /** The latest persisted run: id, timeframe, asOf (the bar it stood on), startedAt, finishedAt, durationMs, symbolsScanned, signalsFound, status, source, and staleSeries: the series left out because their data ended more than one session of bars before asOf ({symbol, lastBar, barsBehind}; null on runs stored before it was recorded) */
  latestPersistedRun?: Maybe<Scalars['JSON']['output']>;
  pagination?: Maybe<PageMeta>;
  /** This page of the ranking (by finalScore, best first); the same list as items */
  rankedSignals?: Maybe<Array<Maybe<BreakoutSignal>>>;
  regime?: Maybe<Scalars['JSON']['output']>;
  /** The newest persisted runs, newest first, each as latestPersistedRun */
  runHistory?: Maybe<Array<Maybe<Scalars['JSON']['output']>>>;
  symbolRollups?: Maybe<Array<Maybe<Scalars['JSON']['output']>>>;
  view?: Maybe<Scalars['String']['output']>;
};

export type BreakoutsResponseAlertBlocked = {
  __typename?: 'BreakoutsResponseAlertBlocked';
  /** The same reasons as codes: extended | illiquid | regime | earnings | cooldown */
  codes?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  /** Each reason in words, with its numbers */
  reasons?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  signal?: Maybe<BreakoutSignal>;
};

export type CommunityFeedPage = {
  __typename?: 'CommunityFeedPage';
  items?: Maybe<Array<Maybe<CommunityPost>>>;
  pagination?: Maybe<PageMeta>;
};

export type CommunityPost = {
  __typename?: 'CommunityPost';
  /** A stable pseudonym of the author (usr_ and 16 hex digits of a SHA-256 of the user id): the feed does not publish identity-provider ids */
  author?: Maybe<Scalars['String']['output']>;
  body?: Maybe<Scalars['String']['output']>;
  createdAt?: Maybe<Scalars['String']['output']>;
  editedAt?: Maybe<Scalars['String']['output']>;
  /** pst_… */
  id?: Maybe<Scalars['String']['output']>;
  signalId?: Maybe<Scalars['String']['output']>;
  symbols?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
};

export type ConfluenceResponse = {
  __typename?: 'ConfluenceResponse';
  /** 0..1 */
  agreement?: Maybe<Scalars['Float']['output']>;
  /** Time of the bar evaluated */
  asOf?: Maybe<Scalars['String']['output']>;
  /** Bars of history read */
  bars?: Maybe<Scalars['JSON']['output']>;
  benchmark?: Maybe<Scalars['String']['output']>;
  /** 0..1 */
  coverage?: Maybe<Scalars['Float']['output']>;
  direction?: Maybe<Scalars['String']['output']>;
  factors?: Maybe<Array<Maybe<ConfluenceResponseFactors>>>;
  higherTimeframe?: Maybe<Scalars['String']['output']>;
  lookback?: Maybe<ConfluenceResponseLookback>;
  method?: Maybe<Scalars['JSON']['output']>;
  ok?: Maybe<Scalars['Boolean']['output']>;
  /** −100..100 */
  score?: Maybe<Scalars['Float']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  timeframe?: Maybe<Scalars['String']['output']>;
};

export type ConfluenceResponseFactors = {
  __typename?: 'ConfluenceResponseFactors';
  /** The reading in words, with its numbers */
  detail?: Maybe<Scalars['String']['output']>;
  /** trend | momentum | volume | volatilityContraction | relativeStrength | higherTimeframe | activePatterns */
  name?: Maybe<Scalars['String']['output']>;
  /** The number the vote rests on, null without evidence */
  value?: Maybe<Scalars['Float']['output']>;
  vote?: Maybe<Scalars['JSON']['output']>;
  weight?: Maybe<Scalars['Float']['output']>;
};

export type ConfluenceResponseLookback = {
  __typename?: 'ConfluenceResponseLookback';
  effective?: Maybe<Scalars['JSON']['output']>;
  requested?: Maybe<Scalars['JSON']['output']>;
};

export type CreatedApiKey = {
  __typename?: 'CreatedApiKey';
  /** When the key was created */
  createdAt?: Maybe<Scalars['String']['output']>;
  /** key_… */
  id?: Maybe<Scalars['String']['output']>;
  /** The whole key, shown this once: store it now (only its hash is kept) */
  key?: Maybe<Scalars['String']['output']>;
  /** Last authenticated request, to within a minute (written in batches); null when never used */
  lastUsedAt?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  /** The key's first characters (bk_ and 8 more), to recognise it; the rest is never shown again */
  prefix?: Maybe<Scalars['String']['output']>;
  /** When the key was revoked; null while it is active */
  revokedAt?: Maybe<Scalars['String']['output']>;
  /** What the key was given (it acts with those its owner's current tier allows) */
  scopes?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  /** Account tier: free < pro < enterprise */
  tier?: Maybe<Scalars['String']['output']>;
};

export type EarningsProximity = {
  __typename?: 'EarningsProximity';
  alertBlockTradingDays?: Maybe<Scalars['Float']['output']>;
  asOf?: Maybe<Scalars['String']['output']>;
  /** The signal engine blocks alerts this close to a report (DESIGN §4) */
  blocksAlerts?: Maybe<Scalars['Boolean']['output']>;
  calendarDaysUntil?: Maybe<Scalars['Float']['output']>;
  holdingWindowTradingDays?: Maybe<Scalars['Float']['output']>;
  lastReport?: Maybe<Scalars['String']['output']>;
  nextReport?: Maybe<Scalars['String']['output']>;
  timing?: Maybe<Scalars['String']['output']>;
  tradingDaysSinceLast?: Maybe<Scalars['Float']['output']>;
  tradingDaysUntil?: Maybe<Scalars['Float']['output']>;
  /** The next report falls inside a typical holding window from today */
  withinHoldingWindow?: Maybe<Scalars['Boolean']['output']>;
};

export type EarningsReport = {
  __typename?: 'EarningsReport';
  /** Report date (US/Eastern) */
  date?: Maybe<Scalars['String']['output']>;
  epsActual?: Maybe<Scalars['Float']['output']>;
  epsEstimate?: Maybe<Scalars['Float']['output']>;
  fiscalPeriodEnding?: Maybe<Scalars['String']['output']>;
  /** Opening gap of the reaction session vs the previous close, % */
  gapPct?: Maybe<Scalars['Float']['output']>;
  /** Close of the reaction session vs the previous close, % */
  movePct?: Maybe<Scalars['Float']['output']>;
  /** The session that first trades on the news: the report day for bmo, the next session for amc/unknown */
  reactionSession?: Maybe<Scalars['String']['output']>;
  source?: Maybe<Scalars['String']['output']>;
  /** reported | scheduled */
  status?: Maybe<Scalars['String']['output']>;
  /** (actual − estimate) ÷ |estimate| × 100 */
  surprisePct?: Maybe<Scalars['Float']['output']>;
  /** bmo (before the open), amc (after the close) or unknown */
  timing?: Maybe<Scalars['String']['output']>;
  /** Sessions from today to the report (negative for past reports) */
  tradingDaysAway?: Maybe<Scalars['JSON']['output']>;
};

export type EarningsResponse = {
  __typename?: 'EarningsResponse';
  /** This page of the calendar (same list as items) */
  calendar?: Maybe<Array<Maybe<EarningsReport>>>;
  items?: Maybe<Array<Maybe<EarningsReport>>>;
  pagination?: Maybe<PageMeta>;
  proximity?: Maybe<EarningsProximity>;
  source?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
};

/** Whether the signals show edge over same-day random entries, computed from the current record */
export type EdgeStatement = {
  __typename?: 'EdgeStatement';
  basis?: Maybe<Scalars['String']['output']>;
  /** Which ledger the figures come from */
  ledger?: Maybe<Scalars['String']['output']>;
  /** What the current record shows, in one sentence, e.g. "no band beats same-day random entries: the best, elite, lift −0.3 pp [−1.2, +0.6]; …" */
  statement?: Maybe<Scalars['String']['output']>;
  /** edge: some score band beats same-day random entries (its lift interval lies above 0); none: no band does; insufficient: too few trades */
  verdict?: Maybe<Scalars['String']['output']>;
};

export type Export = {
  __typename?: 'Export';
  createdAt?: Maybe<Scalars['String']['output']>;
  dataset?: Maybe<Scalars['String']['output']>;
  /** Where to download it while done */
  downloadUrl?: Maybe<Scalars['String']['output']>;
  /** Why it failed */
  error?: Maybe<Scalars['String']['output']>;
  /** When a done export stops being downloadable */
  expiresAt?: Maybe<Scalars['String']['output']>;
  /** As asked */
  filters?: Maybe<Scalars['JSON']['output']>;
  /** When it was done or failed */
  finishedAt?: Maybe<Scalars['String']['output']>;
  format?: Maybe<Scalars['String']['output']>;
  /** exp_… */
  id?: Maybe<Scalars['String']['output']>;
  /** Records in the file, once done */
  rowCount?: Maybe<Scalars['JSON']['output']>;
  /** Size of the file, once done */
  sizeBytes?: Maybe<Scalars['JSON']['output']>;
  /** When it started running */
  startedAt?: Maybe<Scalars['String']['output']>;
  /** queued → running → done | failed; a done export becomes expired after EXPORTS_TTL_HOURS */
  status?: Maybe<Scalars['String']['output']>;
};

export type ExportPage = {
  __typename?: 'ExportPage';
  items?: Maybe<Array<Maybe<Export>>>;
  pagination?: Maybe<PageMeta>;
};

export type FloatResponse = {
  __typename?: 'FloatResponse';
  /** Average daily volume of the last 50 complete sessions */
  averageVolume?: Maybe<Scalars['Float']['output']>;
  caveat?: Maybe<Scalars['String']['output']>;
  /** Volume-rotation class from the days it takes to trade the float once */
  classification?: Maybe<Scalars['String']['output']>;
  /** 1 ÷ ratio: sessions to trade the whole float at the average volume */
  daysToRotate?: Maybe<Scalars['Float']['output']>;
  float?: Maybe<FloatResponseFloat>;
  /** micro (< 10M shares), low (< 50M), mid (< 500M), large, or unknown */
  floatSize?: Maybe<Scalars['String']['output']>;
  /** Average daily volume (50 sessions) ÷ free float: the share of the float traded a day */
  ratio?: Maybe<Scalars['Float']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  /** The classification thresholds in days to rotate */
  thresholds?: Maybe<Scalars['JSON']['output']>;
};

export type FloatResponseFloat = {
  __typename?: 'FloatResponseFloat';
  asOf?: Maybe<Scalars['String']['output']>;
  freeFloat?: Maybe<Scalars['Float']['output']>;
  shareOutstanding?: Maybe<Scalars['Float']['output']>;
  source?: Maybe<Scalars['String']['output']>;
};

export type ForecastConePoint = {
  __typename?: 'ForecastConePoint';
  /** The session (NYSE calendar) */
  date?: Maybe<Scalars['String']['output']>;
  /** Trading days ahead */
  day?: Maybe<Scalars['JSON']['output']>;
  p5?: Maybe<Scalars['Float']['output']>;
  p25?: Maybe<Scalars['Float']['output']>;
  p50?: Maybe<Scalars['Float']['output']>;
  p75?: Maybe<Scalars['Float']['output']>;
  p95?: Maybe<Scalars['Float']['output']>;
};

export type ForecastResponse = {
  __typename?: 'ForecastResponse';
  /** The highest-scoring live setup of the symbol on the daily scan at asOf, or null */
  activePattern?: Maybe<ForecastResponseActivePattern>;
  /** Session of the last close used */
  asOf?: Maybe<Scalars['String']['output']>;
  calibration?: Maybe<ForecastResponseCalibration>;
  /** Quantiles for each day 1..horizon */
  cone?: Maybe<Array<Maybe<ForecastConePoint>>>;
  /** Why the requested model was not used, or null */
  fallback?: Maybe<Scalars['String']['output']>;
  /** Trading days ahead */
  horizon?: Maybe<Scalars['JSON']['output']>;
  method?: Maybe<Scalars['JSON']['output']>;
  /** The model used */
  model?: Maybe<Scalars['String']['output']>;
  ok?: Maybe<Scalars['Boolean']['output']>;
  /** That close */
  price?: Maybe<Scalars['Float']['output']>;
  /** At the horizon (the cone’s last point) */
  quantiles?: Maybe<ForecastResponseQuantiles>;
  requestedModel?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  /** Ledger figures of the active pattern (all symbols, and this symbol alone); null without an active pattern */
  trackRecord?: Maybe<ForecastResponseTrackRecord>;
  volatility?: Maybe<ForecastResponseVolatility>;
};

export type ForecastResponseActivePattern = {
  __typename?: 'ForecastResponseActivePattern';
  detectedAt?: Maybe<Scalars['String']['output']>;
  direction?: Maybe<Scalars['String']['output']>;
  finalScore?: Maybe<Scalars['Float']['output']>;
  patternFamily?: Maybe<Scalars['String']['output']>;
  patternType?: Maybe<Scalars['String']['output']>;
  pivot?: Maybe<Scalars['Float']['output']>;
  /** P(close at the horizon beyond the stop) */
  probabilityBeyondStop?: Maybe<Scalars['Float']['output']>;
  /** P(close at the horizon beyond target1 in the trade’s direction), from the cone */
  probabilityBeyondTarget?: Maybe<Scalars['Float']['output']>;
  scoreBand?: Maybe<Scalars['String']['output']>;
  state?: Maybe<Scalars['String']['output']>;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  target1?: Maybe<Scalars['Float']['output']>;
};

export type ForecastResponseCalibration = {
  __typename?: 'ForecastResponseCalibration';
  /** Share inside the 25–75% band */
  band50?: Maybe<Scalars['Float']['output']>;
  /** Share of realised horizon moves inside the 5–95% band */
  band90?: Maybe<Scalars['Float']['output']>;
  /** True for EWMA; GARCH parameters are fitted on the same window (in-sample) */
  outOfSample?: Maybe<Scalars['Boolean']['output']>;
  /** Past forecast origins checked (overlapping horizon windows) */
  windows?: Maybe<Scalars['JSON']['output']>;
};

/** At the horizon (the cone’s last point) */
export type ForecastResponseQuantiles = {
  __typename?: 'ForecastResponseQuantiles';
  p5?: Maybe<Scalars['Float']['output']>;
  p25?: Maybe<Scalars['Float']['output']>;
  p50?: Maybe<Scalars['Float']['output']>;
  p75?: Maybe<Scalars['Float']['output']>;
  p95?: Maybe<Scalars['Float']['output']>;
};

export type ForecastResponseTrackRecord = {
  __typename?: 'ForecastResponseTrackRecord';
  direction?: Maybe<Scalars['String']['output']>;
  /** Signals detected and outcomes exited by then */
  knownAt?: Maybe<Scalars['String']['output']>;
  pattern?: Maybe<Performance>;
  patternType?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Performance>;
  timeframe?: Maybe<Scalars['String']['output']>;
};

export type ForecastResponseVolatility = {
  __typename?: 'ForecastResponseVolatility';
  /** daily × √252 */
  annualized?: Maybe<Scalars['Float']['output']>;
  /** Forecast σ of tomorrow’s log return */
  daily?: Maybe<Scalars['Float']['output']>;
  /** σ of the log return over the horizon, √V_h */
  horizon?: Maybe<Scalars['Float']['output']>;
  /** Average annualised volatility over the horizon, √(252 · V_h / h) */
  horizonAnnualized?: Maybe<Scalars['Float']['output']>;
  /** Gaussian log-likelihood of the GARCH fit; null for EWMA */
  logLikelihood?: Maybe<Scalars['Float']['output']>;
  /** GARCH long-run σ √(ω / (1 − α − β)); null for EWMA */
  longRunDaily?: Maybe<Scalars['Float']['output']>;
  /** Daily returns used */
  observations?: Maybe<Scalars['JSON']['output']>;
  params?: Maybe<ForecastResponseVolatilityParams>;
};

export type ForecastResponseVolatilityParams = {
  __typename?: 'ForecastResponseVolatilityParams';
  alpha?: Maybe<Scalars['Float']['output']>;
  beta?: Maybe<Scalars['Float']['output']>;
  /** Days for a variance shock to halve; null for EWMA (no mean reversion) */
  halfLifeDays?: Maybe<Scalars['Float']['output']>;
  /** EWMA decay; null for GARCH */
  lambda?: Maybe<Scalars['Float']['output']>;
  omega?: Maybe<Scalars['Float']['output']>;
  /** α + β */
  persistence?: Maybe<Scalars['Float']['output']>;
};

export type HistorySignal = {
  __typename?: 'HistorySignal';
  breakoutState?: Maybe<Scalars['String']['output']>;
  confidence?: Maybe<Scalars['Float']['output']>;
  detectedAt?: Maybe<Scalars['String']['output']>;
  direction?: Maybe<Scalars['String']['output']>;
  finalScore?: Maybe<Scalars['Float']['output']>;
  firstRunId?: Maybe<Scalars['String']['output']>;
  id?: Maybe<Scalars['String']['output']>;
  lastSeenRunId?: Maybe<Scalars['String']['output']>;
  patternFamily?: Maybe<Scalars['String']['output']>;
  patternType?: Maybe<Scalars['String']['output']>;
  reasons?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  scoreBand?: Maybe<Scalars['String']['output']>;
  source?: Maybe<Scalars['String']['output']>;
  /** Every recorded state change, oldest first */
  stateHistory?: Maybe<Array<Maybe<HistorySignalStateHistory>>>;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  target1?: Maybe<Scalars['Float']['output']>;
  timeframe?: Maybe<Scalars['String']['output']>;
  trendRegime?: Maybe<Scalars['String']['output']>;
  triggerPrice?: Maybe<Scalars['Float']['output']>;
};

export type HistorySignalStateHistory = {
  __typename?: 'HistorySignalStateHistory';
  /** Bar time of the change */
  at?: Maybe<Scalars['String']['output']>;
  from?: Maybe<Scalars['String']['output']>;
  price?: Maybe<Scalars['Float']['output']>;
  recordedAt?: Maybe<Scalars['String']['output']>;
  runId?: Maybe<Scalars['String']['output']>;
  to?: Maybe<Scalars['String']['output']>;
};

export type InsiderResponse = {
  __typename?: 'InsiderResponse';
  from?: Maybe<Scalars['String']['output']>;
  source?: Maybe<Scalars['String']['output']>;
  summary?: Maybe<Scalars['JSON']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  to?: Maybe<Scalars['String']['output']>;
  transactions?: Maybe<Array<Maybe<InsiderTransaction>>>;
  windowDays?: Maybe<Scalars['JSON']['output']>;
};

export type InsiderTransaction = {
  __typename?: 'InsiderTransaction';
  /** A acquired, D disposed */
  acquiredDisposed?: Maybe<Scalars['String']['output']>;
  /** SEC Form 4 transaction code */
  code?: Maybe<Scalars['String']['output']>;
  codeDescription?: Maybe<Scalars['String']['output']>;
  /** Transaction date */
  date?: Maybe<Scalars['String']['output']>;
  filingDate?: Maybe<Scalars['String']['output']>;
  filingUrl?: Maybe<Scalars['String']['output']>;
  insider?: Maybe<Scalars['String']['output']>;
  price?: Maybe<Scalars['Float']['output']>;
  role?: Maybe<Scalars['String']['output']>;
  shares?: Maybe<Scalars['Float']['output']>;
  value?: Maybe<Scalars['Float']['output']>;
};

export type JournalEntry = {
  __typename?: 'JournalEntry';
  /** When it was created */
  createdAt?: Maybe<Scalars['String']['output']>;
  entryAt?: Maybe<Scalars['String']['output']>;
  entryPrice?: Maybe<Scalars['Float']['output']>;
  exitAt?: Maybe<Scalars['String']['output']>;
  /** null while open */
  exitPrice?: Maybe<Scalars['Float']['output']>;
  fees?: Maybe<Scalars['Float']['output']>;
  /** Calendar days from entry to exit (UTC), as the ledger counts daysHeld */
  holdingDays?: Maybe<Scalars['JSON']['output']>;
  /** jrn_… */
  id?: Maybe<Scalars['String']['output']>;
  /** |entry − stop| × size */
  initialRisk?: Maybe<Scalars['Float']['output']>;
  notes?: Maybe<Scalars['String']['output']>;
  /** (exit − entry) × size × (+1 long, −1 short) − fees; null while open */
  pnl?: Maybe<Scalars['Float']['output']>;
  /** pnl ÷ initialRisk (fees count against R); null without a linked stop or while open */
  rMultiple?: Maybe<Scalars['Float']['output']>;
  /** Price move in the trade’s favour, % of entry, before fees */
  returnPct?: Maybe<Scalars['Float']['output']>;
  side?: Maybe<Scalars['String']['output']>;
  signalId?: Maybe<Scalars['String']['output']>;
  size?: Maybe<Scalars['Float']['output']>;
  status?: Maybe<Scalars['String']['output']>;
  /** The linked signal’s stop */
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  tags?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  /** When it last changed */
  updatedAt?: Maybe<Scalars['String']['output']>;
};

export type JournalEntryPage = {
  __typename?: 'JournalEntryPage';
  items?: Maybe<Array<Maybe<JournalEntry>>>;
  pagination?: Maybe<PageMeta>;
};

/** Like the public scorecard (GET /api/scorecard), over your journal: r holds the same figures, by the same definitions, over the entries whose linked signal gives a stop. */
export type JournalSummary = {
  __typename?: 'JournalSummary';
  /** Mean holding days of closed trades */
  avgHoldingDays?: Maybe<Scalars['Float']['output']>;
  breakeven?: Maybe<Scalars['JSON']['output']>;
  closed?: Maybe<Scalars['JSON']['output']>;
  entries?: Maybe<Scalars['JSON']['output']>;
  losses?: Maybe<Scalars['JSON']['output']>;
  open?: Maybe<Scalars['JSON']['output']>;
  pnl?: Maybe<JournalSummaryPnl>;
  r?: Maybe<Performance>;
  /** wins ÷ closed */
  winRate?: Maybe<Scalars['Float']['output']>;
  /** Wilson 95% */
  winRateInterval?: Maybe<JournalSummaryWinRateInterval>;
  /** Closed with pnl > 0 */
  wins?: Maybe<Scalars['JSON']['output']>;
  /** Closed entries without a linked signal’s stop (not in r) */
  withoutStop?: Maybe<Scalars['JSON']['output']>;
};

export type JournalSummaryPnl = {
  __typename?: 'JournalSummaryPnl';
  /** Mean pnl per closed trade */
  average?: Maybe<Scalars['Float']['output']>;
  averageInterval?: Maybe<JournalSummaryPnlAverageInterval>;
  /** Mean |pnl| of losers */
  averageLoss?: Maybe<Scalars['Float']['output']>;
  /** Mean pnl of winners */
  averageWin?: Maybe<Scalars['Float']['output']>;
  /** winRate × averageWin − lossRate × averageLoss, per trade (Tharp) */
  expectancy?: Maybe<Scalars['Float']['output']>;
  fees?: Maybe<Scalars['Float']['output']>;
  /** Σ wins ÷ |Σ losses|; null without losses */
  profitFactor?: Maybe<Scalars['Float']['output']>;
  total?: Maybe<Scalars['Float']['output']>;
};

export type JournalSummaryPnlAverageInterval = {
  __typename?: 'JournalSummaryPnlAverageInterval';
  lower?: Maybe<Scalars['Float']['output']>;
  upper?: Maybe<Scalars['Float']['output']>;
};

/** Wilson 95% */
export type JournalSummaryWinRateInterval = {
  __typename?: 'JournalSummaryWinRateInterval';
  lower?: Maybe<Scalars['Float']['output']>;
  upper?: Maybe<Scalars['Float']['output']>;
};

export type LatestSignal = {
  __typename?: 'LatestSignal';
  breakoutState?: Maybe<Scalars['String']['output']>;
  detectedAt?: Maybe<Scalars['String']['output']>;
  direction?: Maybe<Scalars['String']['output']>;
  finalScore?: Maybe<Scalars['Float']['output']>;
  /** SYMBOL-pattern-detectedAt */
  id?: Maybe<Scalars['String']['output']>;
  patternType?: Maybe<Scalars['String']['output']>;
  scoreBand?: Maybe<Scalars['String']['output']>;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  target1?: Maybe<Scalars['Float']['output']>;
  timeframe?: Maybe<Scalars['String']['output']>;
  triggerPrice?: Maybe<Scalars['Float']['output']>;
};

export type LedgerChainReport = {
  __typename?: 'LedgerChainReport';
  checkpoints?: Maybe<LedgerChainReportCheckpoints>;
  count?: Maybe<Scalars['JSON']['output']>;
  durationMs?: Maybe<Scalars['JSON']['output']>;
  firstBadSeq?: Maybe<Scalars['JSON']['output']>;
  /** The records after this seq were recomputed by this pass (0: all) */
  fromSeq?: Maybe<Scalars['JSON']['output']>;
  head?: Maybe<LedgerChainReportHead>;
  ok?: Maybe<Scalars['Boolean']['output']>;
  reason?: Maybe<Scalars['String']['output']>;
  /** full: every record recomputed; incremental: the records after fromSeq, chained to the head verified before */
  scope?: Maybe<Scalars['String']['output']>;
  /** When the pass ran; the report is reused while the ledger head is unchanged */
  verifiedAt?: Maybe<Scalars['String']['output']>;
};

export type LedgerChainReportCheckpoints = {
  __typename?: 'LedgerChainReportCheckpoints';
  count?: Maybe<Scalars['JSON']['output']>;
  firstBadSeq?: Maybe<Scalars['JSON']['output']>;
  verified?: Maybe<Scalars['JSON']['output']>;
};

export type LedgerChainReportHead = {
  __typename?: 'LedgerChainReportHead';
  hash?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
};

export type LedgerCheckpointsResponse = {
  __typename?: 'LedgerCheckpointsResponse';
  checkpoints?: Maybe<Array<Maybe<LedgerCheckpointsResponseCheckpoints>>>;
  count?: Maybe<Scalars['JSON']['output']>;
};

export type LedgerCheckpointsResponseCheckpoints = {
  __typename?: 'LedgerCheckpointsResponseCheckpoints';
  count?: Maybe<Scalars['JSON']['output']>;
  createdAt?: Maybe<Scalars['String']['output']>;
  headHash?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
};

export type LedgerRecord = {
  __typename?: 'LedgerRecord';
  events?: Maybe<Array<Maybe<LedgerRecordEvents>>>;
  hash?: Maybe<Scalars['String']['output']>;
  /** open, or win | loss | scratch with R-multiple, excursions, exit and holding time */
  outcome?: Maybe<Scalars['JSON']['output']>;
  outcomeRecord?: Maybe<LedgerRecordOutcomeRecord>;
  prevHash?: Maybe<Scalars['String']['output']>;
  recordedAt?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
  /** What was known when the signal was first surfaced (the hashed record) */
  signal?: Maybe<Scalars['JSON']['output']>;
  state?: Maybe<Scalars['String']['output']>;
};

export type LedgerRecordEvents = {
  __typename?: 'LedgerRecordEvents';
  at?: Maybe<Scalars['String']['output']>;
  from?: Maybe<Scalars['String']['output']>;
  hash?: Maybe<Scalars['String']['output']>;
  price?: Maybe<Scalars['Float']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
  to?: Maybe<Scalars['String']['output']>;
};

export type LedgerRecordOutcomeRecord = {
  __typename?: 'LedgerRecordOutcomeRecord';
  hash?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
};

export type LedgerResponse = {
  __typename?: 'LedgerResponse';
  /** Signal records matching the filters (all pages) */
  count?: Maybe<Scalars['JSON']['output']>;
  filters?: Maybe<LedgerResponseFilters>;
  head?: Maybe<LedgerResponseHead>;
  records?: Maybe<Array<Maybe<LedgerRecord>>>;
  /** The replay shown (source=replay), else null */
  replay?: Maybe<ReplaySummary>;
  /** Which ledger this shows */
  source?: Maybe<Scalars['String']['output']>;
};

export type LedgerResponseFilters = {
  __typename?: 'LedgerResponseFilters';
  limit?: Maybe<Scalars['JSON']['output']>;
  maxLimit?: Maybe<Scalars['JSON']['output']>;
  offset?: Maybe<Scalars['JSON']['output']>;
  patternType?: Maybe<Scalars['String']['output']>;
  scoreBand?: Maybe<Scalars['String']['output']>;
  since?: Maybe<Scalars['String']['output']>;
  until?: Maybe<Scalars['String']['output']>;
};

export type LedgerResponseHead = {
  __typename?: 'LedgerResponseHead';
  hash?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
};

export type LedgerVerifyResponse = {
  __typename?: 'LedgerVerifyResponse';
  /** Each chain on its own: the live ledger and the replay ledger */
  chains?: Maybe<LedgerVerifyResponseChains>;
  /** Live chain */
  checkpoints?: Maybe<LedgerVerifyResponseCheckpoints>;
  /** Live chain */
  count?: Maybe<Scalars['JSON']['output']>;
  /** Both chains */
  durationMs?: Maybe<Scalars['JSON']['output']>;
  /** Live chain */
  firstBadSeq?: Maybe<Scalars['JSON']['output']>;
  /** Live chain: the records after this seq were recomputed by this pass (0: all) */
  fromSeq?: Maybe<Scalars['JSON']['output']>;
  /** Live chain */
  head?: Maybe<LedgerVerifyResponseHead>;
  method?: Maybe<Scalars['String']['output']>;
  /** Both chains hold */
  ok?: Maybe<Scalars['Boolean']['output']>;
  /** Live chain, else the replay chain’s, prefixed "replay chain:" */
  reason?: Maybe<Scalars['String']['output']>;
  /** Live chain. full: every record recomputed; incremental: the records after fromSeq, chained to the head verified before */
  scope?: Maybe<Scalars['String']['output']>;
  /** Live chain: when the pass ran; the report is reused while the ledger head is unchanged */
  verifiedAt?: Maybe<Scalars['String']['output']>;
};

/** Each chain on its own: the live ledger and the replay ledger */
export type LedgerVerifyResponseChains = {
  __typename?: 'LedgerVerifyResponseChains';
  live?: Maybe<LedgerChainReport>;
  replay?: Maybe<LedgerChainReport>;
};

/** Live chain */
export type LedgerVerifyResponseCheckpoints = {
  __typename?: 'LedgerVerifyResponseCheckpoints';
  count?: Maybe<Scalars['JSON']['output']>;
  firstBadSeq?: Maybe<Scalars['JSON']['output']>;
  verified?: Maybe<Scalars['JSON']['output']>;
};

/** Live chain */
export type LedgerVerifyResponseHead = {
  __typename?: 'LedgerVerifyResponseHead';
  hash?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
};

export type MacroCalendarResponse = {
  __typename?: 'MacroCalendarResponse';
  asOf?: Maybe<Scalars['String']['output']>;
  count?: Maybe<Scalars['JSON']['output']>;
  /** How far the stored schedule of each kind reaches */
  coverage?: Maybe<Scalars['JSON']['output']>;
  events?: Maybe<Array<Maybe<MacroCalendarResponseEvents>>>;
  /** Per kind: the next release and its proximity (null when the published schedule does not reach that far) */
  next?: Maybe<Scalars['JSON']['output']>;
  nextEvent?: Maybe<MacroCalendarResponseNextEvent>;
  timezone?: Maybe<Scalars['String']['output']>;
  window?: Maybe<MacroCalendarResponseWindow>;
};

export type MacroCalendarResponseEvents = {
  __typename?: 'MacroCalendarResponseEvents';
  at?: Maybe<Scalars['String']['output']>;
  /** Release date in New York */
  date?: Maybe<Scalars['String']['output']>;
  /** Where the date comes from (agency schedule page or data file) */
  source?: Maybe<Scalars['String']['output']>;
  /** Release time in New York, HH:MM */
  time?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
  type?: Maybe<Scalars['String']['output']>;
};

export type MacroCalendarResponseNextEvent = {
  __typename?: 'MacroCalendarResponseNextEvent';
  at?: Maybe<Scalars['String']['output']>;
  /** Release date in New York */
  date?: Maybe<Scalars['String']['output']>;
  hoursUntil?: Maybe<Scalars['Float']['output']>;
  /** Where the date comes from (agency schedule page or data file) */
  source?: Maybe<Scalars['String']['output']>;
  /** Release time in New York, HH:MM */
  time?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
  type?: Maybe<Scalars['String']['output']>;
};

export type MacroCalendarResponseWindow = {
  __typename?: 'MacroCalendarResponseWindow';
  from?: Maybe<Scalars['String']['output']>;
  to?: Maybe<Scalars['String']['output']>;
};

/** Each block reason of the alert policy with the record of the signals it blocked beside those it let through */
export type MonthlyAlertPolicyRecord = {
  __typename?: 'MonthlyAlertPolicyRecord';
  /** Per block reason: the signals it blocked, and let through − blocked mean R and same-day lift */
  byReason?: Maybe<Scalars['JSON']['output']>;
  /** Closed daily trades whose signal was alert-eligible when surfaced */
  eligible?: Maybe<Scalars['JSON']['output']>;
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  letThrough?: Maybe<RecordFigures>;
  /** Closed daily trades whose record carries no alert verdict (written before it was kept) */
  withoutVerdict?: Maybe<Scalars['JSON']['output']>;
};

/** Whether the signals show edge over same-day random entries, computed from the current record */
export type MonthlyEdgeStatement = {
  __typename?: 'MonthlyEdgeStatement';
  basis?: Maybe<Scalars['String']['output']>;
  /** What the current record shows, in one sentence, e.g. "no band beats same-day random entries: the best, elite, lift −0.3 pp [−1.2, +0.6]; …" */
  statement?: Maybe<Scalars['String']['output']>;
  /** edge: some score band beats same-day random entries (its lift interval lies above 0); none: no band does; insufficient: too few trades */
  verdict?: Maybe<Scalars['String']['output']>;
};

/** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced, for the signals detected in the month */
export type MonthlyRecordSection = {
  __typename?: 'MonthlyRecordSection';
  /** Each block reason of the alert policy with the record of the signals it blocked beside those it let through */
  alertPolicy?: Maybe<MonthlyAlertPolicyRecord>;
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  all?: Maybe<RecordFigures>;
  byBand?: Maybe<Scalars['JSON']['output']>;
  byDirection?: Maybe<Scalars['JSON']['output']>;
  byPattern?: Maybe<Scalars['JSON']['output']>;
  byRegime?: Maybe<Scalars['JSON']['output']>;
  byYear?: Maybe<Scalars['JSON']['output']>;
  /** Whether the signals show edge over same-day random entries, computed from the current record */
  edge?: Maybe<MonthlyEdgeStatement>;
  /** Which ledger the figures come from */
  ledger?: Maybe<Scalars['String']['output']>;
  /** Random entries drawn per trade and baseline */
  matches?: Maybe<Scalars['JSON']['output']>;
  method?: Maybe<Scalars['JSON']['output']>;
  /** The universe the random entries were drawn from */
  universe?: Maybe<Scalars['String']['output']>;
};

export type MonthlyResponse = {
  __typename?: 'MonthlyResponse';
  byBand?: Maybe<Scalars['JSON']['output']>;
  byDirection?: Maybe<Scalars['JSON']['output']>;
  byPattern?: Maybe<Scalars['JSON']['output']>;
  byTimeframe?: Maybe<Scalars['JSON']['output']>;
  from?: Maybe<Scalars['String']['output']>;
  generatedAt?: Maybe<Scalars['String']['output']>;
  ledgerHead?: Maybe<MonthlyResponseLedgerHead>;
  method?: Maybe<Scalars['JSON']['output']>;
  month?: Maybe<Scalars['String']['output']>;
  /** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced, for the signals detected in the month */
  record?: Maybe<MonthlyRecordSection>;
  /** The replay shown (source=replay), else null */
  replay?: Maybe<ReplaySummary>;
  signals?: Maybe<Array<Maybe<Scalars['JSON']['output']>>>;
  /** Which ledger this shows */
  source?: Maybe<Scalars['String']['output']>;
  summary?: Maybe<Performance>;
  to?: Maybe<Scalars['String']['output']>;
};

export type MonthlyResponseLedgerHead = {
  __typename?: 'MonthlyResponseLedgerHead';
  hash?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
};

export type Mutation = {
  __typename?: 'Mutation';
  /** POST /api/watchlists/:id/symbols; needs a session or an API key with 'write' */
  addWatchlistSymbols?: Maybe<Watchlist>;
  /** POST /api/alerts/v2; needs a session or an API key with 'write' */
  createAlertRule?: Maybe<AlertRule>;
  /** POST /api/keys: a key with admin:keys mints keys only within its own scopes and tier; needs a session or an API key with 'admin:keys' */
  createApiKey?: Maybe<CreatedApiKey>;
  /** POST /api/community/feed; needs a session or an API key with 'write' */
  createCommunityPost?: Maybe<CommunityPost>;
  /** POST /api/exports; needs a session or an API key with 'write', pro tier or above */
  createExport?: Maybe<Export>;
  /** POST /api/journal/entries; needs a session or an API key with 'write' */
  createJournalEntry?: Maybe<JournalEntry>;
  /** POST /api/watchlists; needs a session or an API key with 'write' */
  createWatchlist?: Maybe<Watchlist>;
  /** DELETE /api/alerts/v2/:id; needs a session or an API key with 'write' */
  deleteAlertRule?: Maybe<AlertRule>;
  /** DELETE /api/community/feed/:id; needs a session or an API key with 'write' */
  deleteCommunityPost?: Maybe<CommunityPost>;
  /** DELETE /api/journal/entries/:id; needs a session or an API key with 'write' */
  deleteJournalEntry?: Maybe<JournalEntry>;
  /** DELETE /api/watchlists/:id; needs a session or an API key with 'write' */
  deleteWatchlist?: Maybe<Watchlist>;
  /** PATCH /api/community/feed/:id; needs a session or an API key with 'write' */
  editCommunityPost?: Maybe<CommunityPost>;
  /** POST /api/notifications/read-all; needs a session or an API key with 'write' */
  markAllNotificationsRead?: Maybe<NotificationsReadAll>;
  /** POST /api/notifications/:id/read; needs a session or an API key with 'write' */
  markNotificationRead?: Maybe<Notification>;
  /** DELETE /api/watchlists/:id/symbols/:symbol; needs a session or an API key with 'write' */
  removeWatchlistSymbol?: Maybe<Watchlist>;
  /** PATCH /api/watchlists/:id; needs a session or an API key with 'write' */
  renameWatchlist?: Maybe<Watchlist>;
  /** DELETE /api/keys/:id; needs a session or an API key with 'admin:keys' */
  revokeApiKey?: Maybe<ApiKey>;
  /** PATCH /api/alerts/v2/:id; needs a session or an API key with 'write' */
  updateAlertRule?: Maybe<AlertRule>;
  /** PATCH /api/journal/entries/:id; needs a session or an API key with 'write' */
  updateJournalEntry?: Maybe<JournalEntry>;
};


export type MutationAddWatchlistSymbolsArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationCreateAlertRuleArgs = {
  channels?: InputMaybe<Scalars['JSON']['input']>;
  cooldownMinutes?: InputMaybe<Scalars['Int']['input']>;
  direction?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  minBand?: InputMaybe<Scalars['String']['input']>;
  minScore?: InputMaybe<Scalars['Float']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  patternTypes?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  states?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
  watchlistId?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreateApiKeyArgs = {
  name?: InputMaybe<Scalars['String']['input']>;
  scopes?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  tier?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreateCommunityPostArgs = {
  body?: InputMaybe<Scalars['String']['input']>;
  signalId?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationCreateExportArgs = {
  dataset?: InputMaybe<Scalars['String']['input']>;
  filters?: InputMaybe<Scalars['JSON']['input']>;
  format?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreateJournalEntryArgs = {
  entryAt?: InputMaybe<Scalars['String']['input']>;
  entryPrice?: InputMaybe<Scalars['Float']['input']>;
  exitAt?: InputMaybe<Scalars['String']['input']>;
  exitPrice?: InputMaybe<Scalars['Float']['input']>;
  fees?: InputMaybe<Scalars['Float']['input']>;
  notes?: InputMaybe<Scalars['String']['input']>;
  side?: InputMaybe<Scalars['String']['input']>;
  signalId?: InputMaybe<Scalars['String']['input']>;
  size?: InputMaybe<Scalars['Float']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
  tags?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationCreateWatchlistArgs = {
  name?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationDeleteAlertRuleArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type MutationDeleteCommunityPostArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type MutationDeleteJournalEntryArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type MutationDeleteWatchlistArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type MutationEditCommunityPostArgs = {
  body?: InputMaybe<Scalars['String']['input']>;
  id?: InputMaybe<Scalars['String']['input']>;
  signalId?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationMarkNotificationReadArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type MutationRemoveWatchlistSymbolArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type MutationRenameWatchlistArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
};


export type MutationRevokeApiKeyArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdateAlertRuleArgs = {
  channels?: InputMaybe<Scalars['JSON']['input']>;
  cooldownMinutes?: InputMaybe<Scalars['Int']['input']>;
  direction?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  id?: InputMaybe<Scalars['String']['input']>;
  minBand?: InputMaybe<Scalars['String']['input']>;
  minScore?: InputMaybe<Scalars['Float']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  patternTypes?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  states?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
  watchlistId?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdateJournalEntryArgs = {
  entryAt?: InputMaybe<Scalars['String']['input']>;
  entryPrice?: InputMaybe<Scalars['Float']['input']>;
  exitAt?: InputMaybe<Scalars['String']['input']>;
  exitPrice?: InputMaybe<Scalars['Float']['input']>;
  fees?: InputMaybe<Scalars['Float']['input']>;
  id?: InputMaybe<Scalars['String']['input']>;
  notes?: InputMaybe<Scalars['String']['input']>;
  side?: InputMaybe<Scalars['String']['input']>;
  signalId?: InputMaybe<Scalars['String']['input']>;
  size?: InputMaybe<Scalars['Float']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
  tags?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};

export type Notification = {
  __typename?: 'Notification';
  /** The dispatch (alertId of alerts.dispatched) */
  alertId?: Maybe<Scalars['String']['output']>;
  createdAt?: Maybe<Scalars['String']['output']>;
  finalScore?: Maybe<Scalars['Float']['output']>;
  /** ntf_… */
  id?: Maybe<Scalars['String']['output']>;
  /** An alert rule of yours fired */
  kind?: Maybe<Scalars['String']['output']>;
  patternType?: Maybe<Scalars['String']['output']>;
  readAt?: Maybe<Scalars['String']['output']>;
  rule?: Maybe<NotificationRule>;
  scoreBand?: Maybe<Scalars['String']['output']>;
  signalId?: Maybe<Scalars['String']['output']>;
  /** The signal’s state when the rule fired */
  state?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  timeframe?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
};

export type NotificationPage = {
  __typename?: 'NotificationPage';
  items?: Maybe<Array<Maybe<Notification>>>;
  pagination?: Maybe<PageMeta>;
  /** All your unread notifications (not only this page) */
  unreadCount?: Maybe<Scalars['JSON']['output']>;
};

export type NotificationRule = {
  __typename?: 'NotificationRule';
  id?: Maybe<Scalars['String']['output']>;
  /** As it was named when it fired */
  name?: Maybe<Scalars['String']['output']>;
};

export type NotificationsReadAll = {
  __typename?: 'NotificationsReadAll';
  unreadCount?: Maybe<Scalars['JSON']['output']>;
  /** Notifications marked read now */
  updated?: Maybe<Scalars['JSON']['output']>;
};

export type OptionsAnalyzeResponse = {
  __typename?: 'OptionsAnalyzeResponse';
  candidates?: Maybe<Array<Maybe<Scalars['JSON']['output']>>>;
  direction?: Maybe<Scalars['String']['output']>;
  expectedTimeToTarget?: Maybe<Scalars['JSON']['output']>;
  inputs?: Maybe<Scalars['JSON']['output']>;
  ivCrush?: Maybe<Scalars['JSON']['output']>;
  probabilities?: Maybe<Scalars['JSON']['output']>;
  recommendation?: Maybe<Scalars['JSON']['output']>;
  spreads?: Maybe<Array<Maybe<Scalars['JSON']['output']>>>;
  stock?: Maybe<Scalars['JSON']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
};

export type OptionsFlowResponse = {
  __typename?: 'OptionsFlowResponse';
  flow?: Maybe<Scalars['JSON']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type PageMeta = {
  __typename?: 'PageMeta';
  hasMore?: Maybe<Scalars['Boolean']['output']>;
  /** The effective page size */
  limit?: Maybe<Scalars['JSON']['output']>;
  /** Opaque cursor of the next page; null on the last page */
  nextCursor?: Maybe<Scalars['String']['output']>;
  offset?: Maybe<Scalars['JSON']['output']>;
  order?: Maybe<Scalars['String']['output']>;
  /** Items in all pages, where cheap to count */
  total?: Maybe<Scalars['JSON']['output']>;
};

export type PageMeta2 = {
  __typename?: 'PageMeta2';
  hasMore?: Maybe<Scalars['Boolean']['output']>;
  /** The effective page size */
  limit?: Maybe<Scalars['JSON']['output']>;
  /** Opaque cursor of the next page; null on the last page */
  nextCursor?: Maybe<Scalars['String']['output']>;
  offset?: Maybe<Scalars['JSON']['output']>;
  order?: Maybe<Scalars['String']['output']>;
  /** Items in all pages, where cheap to count */
  total?: Maybe<Scalars['JSON']['output']>;
};

export type Performance = {
  __typename?: 'Performance';
  avgDaysHeld?: Maybe<Scalars['Float']['output']>;
  /** Mean R of closed trades */
  avgR?: Maybe<Scalars['Float']['output']>;
  /** 95%, trades detected in the same Monday-based week taken as one cluster; null below 2 weeks */
  avgRInterval?: Maybe<PerformanceAvgRInterval>;
  /** Entered signals with a final outcome */
  closed?: Maybe<Scalars['JSON']['output']>;
  expectancyR?: Maybe<Scalars['Float']['output']>;
  /** wins ÷ closed */
  hitRate?: Maybe<Scalars['Float']['output']>;
  /** 95%, trades detected in the same Monday-based week taken as one cluster; null below 2 weeks */
  hitRateInterval?: Maybe<PerformanceHitRateInterval>;
  losses?: Maybe<Scalars['JSON']['output']>;
  /** Failed or expired before crossing the trigger */
  neverEntered?: Maybe<Scalars['JSON']['output']>;
  open?: Maybe<Scalars['JSON']['output']>;
  /** null without losses */
  profitFactor?: Maybe<Scalars['Float']['output']>;
  scratches?: Maybe<Scalars['JSON']['output']>;
  signals?: Maybe<Scalars['JSON']['output']>;
  totalR?: Maybe<Scalars['Float']['output']>;
  wins?: Maybe<Scalars['JSON']['output']>;
};

/** 95%, trades detected in the same Monday-based week taken as one cluster; null below 2 weeks */
export type PerformanceAvgRInterval = {
  __typename?: 'PerformanceAvgRInterval';
  lower?: Maybe<Scalars['Float']['output']>;
  upper?: Maybe<Scalars['Float']['output']>;
};

/** 95%, trades detected in the same Monday-based week taken as one cluster; null below 2 weeks */
export type PerformanceHitRateInterval = {
  __typename?: 'PerformanceHitRateInterval';
  lower?: Maybe<Scalars['Float']['output']>;
  upper?: Maybe<Scalars['Float']['output']>;
};

export type PriceBar = {
  __typename?: 'PriceBar';
  close?: Maybe<Scalars['Float']['output']>;
  /** Session date (New York) */
  date?: Maybe<Scalars['String']['output']>;
  high?: Maybe<Scalars['Float']['output']>;
  low?: Maybe<Scalars['Float']['output']>;
  open?: Maybe<Scalars['Float']['output']>;
  /** Start of the bar (4h and 1h bars only) */
  ts?: Maybe<Scalars['String']['output']>;
  volume?: Maybe<Scalars['Float']['output']>;
};

export type Query = {
  __typename?: 'Query';
  /** GET /api/alerts/v2/:id; needs a session or an API key with 'read' */
  alertRule?: Maybe<AlertRule>;
  /** GET /api/alerts/v2; needs a session or an API key with 'read' */
  alertRules?: Maybe<AlertRulePage>;
  /** GET /api/keys; needs a session or an API key with 'admin:keys' */
  apiKeys?: Maybe<ApiKeyList>;
  /** GET /api/bars: API-Version applies as in REST */
  bars?: Maybe<BarsResponse>;
  /** GET /api/breakouts: the ranked signals, alert lists, run history (same answer, same paging); `signals` is the cursor connection over them */
  breakouts?: Maybe<BreakoutsResponse>;
  /** GET /api/community/feed */
  communityFeed?: Maybe<CommunityFeedPage>;
  /** GET /api/community/feed/:id */
  communityPost?: Maybe<CommunityPost>;
  /** GET /api/confluence */
  confluence?: Maybe<ConfluenceResponse>;
  /** GET /api/earnings */
  earnings?: Maybe<EarningsResponse>;
  /** GET /api/exports/:id; needs a session or an API key with 'read', pro tier or above */
  export?: Maybe<Export>;
  /** GET /api/exports; needs a session or an API key with 'read', pro tier or above */
  exports?: Maybe<ExportPage>;
  /** GET /api/float */
  float?: Maybe<FloatResponse>;
  /** GET /api/forecast */
  forecast?: Maybe<ForecastResponse>;
  /** GET /api/altdata/insider */
  insider?: Maybe<InsiderResponse>;
  /** GET /api/journal/entries; needs a session or an API key with 'read' */
  journalEntries?: Maybe<JournalEntryPage>;
  /** GET /api/journal/entries/:id; needs a session or an API key with 'read' */
  journalEntry?: Maybe<JournalEntry>;
  /** GET /api/journal/summary; needs a session or an API key with 'read' */
  journalSummary?: Maybe<JournalSummary>;
  /** GET /api/transparency/ledger */
  ledger?: Maybe<LedgerResponse>;
  /** GET /api/transparency/checkpoints */
  ledgerCheckpoints?: Maybe<LedgerCheckpointsResponse>;
  /** GET /api/transparency/verify */
  ledgerVerification?: Maybe<LedgerVerifyResponse>;
  /** GET /api/macro/calendar */
  macroCalendar?: Maybe<MacroCalendarResponse>;
  /** GET /api/transparency/monthly */
  monthly?: Maybe<MonthlyResponse>;
  /** GET /api/notifications; needs a session or an API key with 'read' */
  notifications?: Maybe<NotificationPage>;
  /** GET /api/options/analyze */
  optionsAnalysis?: Maybe<OptionsAnalyzeResponse>;
  /** GET /api/altdata/options-flow */
  optionsFlow?: Maybe<OptionsFlowResponse>;
  /** GET /api/scorecard */
  scorecard?: Maybe<ScorecardResponse>;
  /** GET /api/sector-rotation */
  sectorRotation?: Maybe<SectorRotationResponse>;
  /** GET /api/altdata/short-interest */
  shortInterest?: Maybe<ShortInterestResponse>;
  /** A persisted signal by id, as the last run that listed it saw it (its state now); null when none was ever surfaced */
  signal?: Maybe<Signal>;
  /** GET /api/breakouts/history */
  signalHistory?: Maybe<BreakoutHistoryResponse>;
  /** The signals of GET /api/breakouts (the latest persisted run, or a replay at asOf; symbols outside the universe scanned on demand) in its ranking, filtered by pattern, band and state, as a Relay connection (first ≤ 100, default 20; after: an endCursor). */
  signals: SignalConnection;
  /** GET /api/snapshot */
  snapshot?: Maybe<SnapshotResponse>;
  /** GET /api/universe/scan */
  universeScan?: Maybe<UniverseScanResponse>;
  /** GET /api/watchlists/:id; needs a session or an API key with 'read' */
  watchlist?: Maybe<Watchlist>;
  /** GET /api/watchlists; needs a session or an API key with 'read' */
  watchlists?: Maybe<WatchlistPage>;
};


export type QueryAlertRuleArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type QueryAlertRulesArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
};


export type QueryBarsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  range?: InputMaybe<Scalars['String']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
};


export type QueryBreakoutsArgs = {
  asOf?: InputMaybe<Scalars['String']['input']>;
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Scalars['String']['input']>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
  view?: InputMaybe<Scalars['String']['input']>;
};


export type QueryCommunityFeedArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type QueryCommunityPostArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type QueryConfluenceArgs = {
  asOf?: InputMaybe<Scalars['String']['input']>;
  benchmark?: InputMaybe<Scalars['String']['input']>;
  lookback?: InputMaybe<Scalars['Int']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
};


export type QueryEarningsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type QueryExportArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type QueryExportsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
};


export type QueryFloatArgs = {
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type QueryForecastArgs = {
  asOf?: InputMaybe<Scalars['String']['input']>;
  horizon?: InputMaybe<Scalars['Int']['input']>;
  model?: InputMaybe<Scalars['String']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type QueryInsiderArgs = {
  symbol?: InputMaybe<Scalars['String']['input']>;
  windowDays?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryJournalEntriesArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
  tag?: InputMaybe<Scalars['String']['input']>;
};


export type QueryJournalEntryArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type QueryJournalSummaryArgs = {
  symbol?: InputMaybe<Scalars['String']['input']>;
  tag?: InputMaybe<Scalars['String']['input']>;
};


export type QueryLedgerArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  patternType?: InputMaybe<Scalars['String']['input']>;
  replayId?: InputMaybe<Scalars['String']['input']>;
  scoreBand?: InputMaybe<Scalars['String']['input']>;
  since?: InputMaybe<Scalars['String']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
  until?: InputMaybe<Scalars['String']['input']>;
};


export type QueryMacroCalendarArgs = {
  from?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
  types?: InputMaybe<Scalars['String']['input']>;
};


export type QueryMonthlyArgs = {
  month?: InputMaybe<Scalars['String']['input']>;
  replayId?: InputMaybe<Scalars['String']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
};


export type QueryNotificationsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
  unread?: InputMaybe<Scalars['Boolean']['input']>;
};


export type QueryOptionsAnalysisArgs = {
  direction?: InputMaybe<Scalars['String']['input']>;
  expiryDays?: InputMaybe<Scalars['Int']['input']>;
  iv?: InputMaybe<Scalars['Float']['input']>;
  ivRank?: InputMaybe<Scalars['Float']['input']>;
  r?: InputMaybe<Scalars['Float']['input']>;
  stop?: InputMaybe<Scalars['Float']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
  target?: InputMaybe<Scalars['Float']['input']>;
  trigger?: InputMaybe<Scalars['Float']['input']>;
};


export type QueryOptionsFlowArgs = {
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type QueryScorecardArgs = {
  replayId?: InputMaybe<Scalars['String']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
};


export type QueryShortInterestArgs = {
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type QuerySignalArgs = {
  id: Scalars['String']['input'];
};


export type QuerySignalHistoryArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
  pattern?: InputMaybe<Scalars['String']['input']>;
  symbol?: InputMaybe<Scalars['String']['input']>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
};


export type QuerySignalsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  asOf?: InputMaybe<Scalars['String']['input']>;
  band?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  pattern?: InputMaybe<Scalars['String']['input']>;
  state?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Array<Scalars['String']['input']>>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
};


export type QuerySnapshotArgs = {
  symbol?: InputMaybe<Scalars['String']['input']>;
};


export type QueryUniverseScanArgs = {
  benchmark?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  minAvgVolUsd?: InputMaybe<Scalars['Float']['input']>;
  minRsRank?: InputMaybe<Scalars['Float']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
};


export type QueryWatchlistArgs = {
  id?: InputMaybe<Scalars['String']['input']>;
};


export type QueryWatchlistsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
};

export type RecordEstimate = {
  __typename?: 'RecordEstimate';
  /** 95% weekly cluster-bootstrap interval */
  lower?: Maybe<Scalars['Float']['output']>;
  upper?: Maybe<Scalars['Float']['output']>;
  value?: Maybe<Scalars['Float']['output']>;
};

/** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
export type RecordFigures = {
  __typename?: 'RecordFigures';
  hitRate?: Maybe<RecordEstimate>;
  meanR?: Maybe<RecordEstimate>;
  priceHitRate?: Maybe<RecordEstimate>;
  /** Trades labelled by prices alone */
  priced?: Maybe<Scalars['JSON']['output']>;
  sameDay?: Maybe<RecordFiguresSameDay>;
  /** Share of the trades the lifecycle ended as scratches */
  scratchShare?: Maybe<Scalars['Float']['output']>;
  /** Closed, entered daily trades */
  trades?: Maybe<Scalars['JSON']['output']>;
  /** Entry weeks with a trade: the clusters resampled */
  weeks?: Maybe<Scalars['JSON']['output']>;
  yearMatched?: Maybe<RecordFiguresYearMatched>;
};

export type RecordFiguresSameDay = {
  __typename?: 'RecordFiguresSameDay';
  /** Resolved same-day random entries */
  draws?: Maybe<Scalars['JSON']['output']>;
  /** Their hit rate (target1 before the stop, prices only) */
  hitRate?: Maybe<Scalars['Float']['output']>;
  lift?: Maybe<RecordEstimate>;
  liftR?: Maybe<RecordEstimate>;
  /** Their mean R */
  meanR?: Maybe<Scalars['Float']['output']>;
};

export type RecordFiguresYearMatched = {
  __typename?: 'RecordFiguresYearMatched';
  /** Resolved year-matched random entries */
  draws?: Maybe<Scalars['JSON']['output']>;
  /** Their hit rate (target1 before the stop, prices only) */
  hitRate?: Maybe<Scalars['Float']['output']>;
  lift?: Maybe<RecordEstimate>;
  liftR?: Maybe<RecordEstimate>;
  /** Their mean R */
  meanR?: Maybe<Scalars['Float']['output']>;
};

/** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced */
export type RecordSection = {
  __typename?: 'RecordSection';
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  all?: Maybe<RecordFigures>;
  byBand?: Maybe<Scalars['JSON']['output']>;
  byDirection?: Maybe<Scalars['JSON']['output']>;
  byPattern?: Maybe<Scalars['JSON']['output']>;
  byRegime?: Maybe<Scalars['JSON']['output']>;
  byYear?: Maybe<Scalars['JSON']['output']>;
  /** Which ledger the figures come from */
  ledger?: Maybe<Scalars['String']['output']>;
  /** Random entries drawn per trade and baseline */
  matches?: Maybe<Scalars['JSON']['output']>;
  method?: Maybe<Scalars['JSON']['output']>;
  /** The universe the random entries were drawn from */
  universe?: Maybe<Scalars['String']['output']>;
};

export type ReplaySummary = {
  __typename?: 'ReplaySummary';
  /** The market-data provider the replay read (synthetic, csv, yahoo) */
  dataSource?: Maybe<Scalars['String']['output']>;
  finishedAt?: Maybe<Scalars['String']['output']>;
  id?: Maybe<Scalars['String']['output']>;
  /** What started it: boot (first start), cli, api, test */
  origin?: Maybe<Scalars['String']['output']>;
  /** timeframe, from, to, universe, benchmark */
  params?: Maybe<Scalars['JSON']['output']>;
  sessionsDone?: Maybe<Scalars['JSON']['output']>;
  sessionsTotal?: Maybe<Scalars['JSON']['output']>;
  startedAt?: Maybe<Scalars['String']['output']>;
  /** running, done or failed */
  status?: Maybe<Scalars['String']['output']>;
  /** The universe scanned at each date, and whether the figures carry survivorship bias, in words */
  universe?: Maybe<ReplaySummaryUniverse>;
};

/** The universe scanned at each date, and whether the figures carry survivorship bias, in words */
export type ReplaySummaryUniverse = {
  __typename?: 'ReplaySummaryUniverse';
  kind?: Maybe<Scalars['String']['output']>;
  membersWithoutData?: Maybe<Scalars['JSON']['output']>;
  membership?: Maybe<Scalars['String']['output']>;
  minCoverage?: Maybe<Scalars['Float']['output']>;
  survivorshipBias?: Maybe<Scalars['Boolean']['output']>;
  survivorshipNote?: Maybe<Scalars['String']['output']>;
  symbols?: Maybe<Scalars['JSON']['output']>;
};

/** Each component in [0, 1], null without data (kernels/scoring weighs them) */
export type ScoreComponents = {
  __typename?: 'ScoreComponents';
  breakoutVolume?: Maybe<Scalars['Float']['output']>;
  patternQuality?: Maybe<Scalars['Float']['output']>;
  proximity?: Maybe<Scalars['Float']['output']>;
  regime?: Maybe<Scalars['Float']['output']>;
  rsRank?: Maybe<Scalars['Float']['output']>;
  tightness?: Maybe<Scalars['Float']['output']>;
  trendTemplate?: Maybe<Scalars['Float']['output']>;
};

export type ScorecardResponse = {
  __typename?: 'ScorecardResponse';
  /** Each block reason of the alert policy with the record of the signals it blocked beside those it let through */
  alertPolicy?: Maybe<AlertPolicyRecord>;
  allTime?: Maybe<Performance>;
  calibration?: Maybe<ScorecardResponseCalibration>;
  /** Whether the signals show edge over same-day random entries, computed from the current record */
  edge?: Maybe<EdgeStatement>;
  generatedAt?: Maybe<Scalars['String']['output']>;
  /** verdict (rising | falling | mixed | insufficient), the computed statement, Spearman ρ, band steps with each band's weekly-clustered hit-rate interval */
  higherBandsDoBetter?: Maybe<Scalars['JSON']['output']>;
  ledgerHead?: Maybe<ScorecardResponseLedgerHead>;
  method?: Maybe<Scalars['JSON']['output']>;
  /** The replay shown (source=replay), else null */
  replay?: Maybe<ReplaySummary>;
  /** Which ledger this shows */
  source?: Maybe<Scalars['String']['output']>;
  /** Whether the figures may flatter because companies that later failed or left the index are missing from the universe */
  survivorshipBias?: Maybe<Scalars['Boolean']['output']>;
  /** What survivorship bias means for these figures, in words */
  survivorshipNote?: Maybe<Scalars['String']['output']>;
  /** 30d, 90d, 365d by detection date */
  trailing?: Maybe<Scalars['JSON']['output']>;
};

export type ScorecardResponseCalibration = {
  __typename?: 'ScorecardResponseCalibration';
  byBand?: Maybe<Scalars['JSON']['output']>;
  byDirection?: Maybe<Scalars['JSON']['output']>;
  byPattern?: Maybe<Scalars['JSON']['output']>;
  byRegime?: Maybe<Scalars['JSON']['output']>;
  byTimeframe?: Maybe<Scalars['JSON']['output']>;
  /** Is confidence a probability of a win? Brier score against the base rate, and the reliability table */
  confidence?: Maybe<ScorecardResponseCalibrationConfidence>;
  /** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced */
  record?: Maybe<RecordSection>;
};

/** Is confidence a probability of a win? Brier score against the base rate, and the reliability table */
export type ScorecardResponseCalibrationConfidence = {
  __typename?: 'ScorecardResponseCalibrationConfidence';
  /** The hit rate of those trades */
  baseRate?: Maybe<Scalars['Float']['output']>;
  /** Mean (confidence − win)² */
  brier?: Maybe<Scalars['Float']['output']>;
  /** Brier score of predicting the base rate for every trade */
  referenceBrier?: Maybe<Scalars['Float']['output']>;
  /** Predicted vs observed by decile of confidence; observed with its Wilson 95% interval */
  reliability?: Maybe<Array<Maybe<ScorecardResponseCalibrationConfidenceReliability>>>;
  /** 1 − brier ÷ referenceBrier; above 0 the confidence tells more than the base rate */
  skill?: Maybe<Scalars['Float']['output']>;
  /** Closed trades with a confidence */
  trades?: Maybe<Scalars['JSON']['output']>;
};

export type ScorecardResponseCalibrationConfidenceReliability = {
  __typename?: 'ScorecardResponseCalibrationConfidenceReliability';
  from?: Maybe<Scalars['Float']['output']>;
  lower?: Maybe<Scalars['Float']['output']>;
  observed?: Maybe<Scalars['Float']['output']>;
  predicted?: Maybe<Scalars['Float']['output']>;
  to?: Maybe<Scalars['Float']['output']>;
  trades?: Maybe<Scalars['JSON']['output']>;
  upper?: Maybe<Scalars['Float']['output']>;
};

export type ScorecardResponseLedgerHead = {
  __typename?: 'ScorecardResponseLedgerHead';
  hash?: Maybe<Scalars['String']['output']>;
  seq?: Maybe<Scalars['JSON']['output']>;
};

export type SectorRotationResponse = {
  __typename?: 'SectorRotationResponse';
  asOf?: Maybe<Scalars['String']['output']>;
  benchmark?: Maybe<Scalars['String']['output']>;
  count?: Maybe<Scalars['JSON']['output']>;
  method?: Maybe<Scalars['String']['output']>;
  /** Ranked by RS-Ratio, strongest first */
  sectors?: Maybe<Array<Maybe<SectorRotationResponseSectors>>>;
};

export type SectorRotationResponseSectors = {
  __typename?: 'SectorRotationResponseSectors';
  performance?: Maybe<Scalars['JSON']['output']>;
  quadrant?: Maybe<Scalars['String']['output']>;
  /** RRG-style RS-Momentum (100 = steady relative trend) */
  rsMomentum?: Maybe<Scalars['Float']['output']>;
  /** RRG-style RS-Ratio (100 = in line with the benchmark) */
  rsRatio?: Maybe<Scalars['Float']['output']>;
  /** GICS sector */
  sector?: Maybe<Scalars['String']['output']>;
  /** SPDR sector fund */
  symbol?: Maybe<Scalars['String']['output']>;
  /** Weekly points (5 bars apart), oldest first, ending at the latest */
  tail?: Maybe<Array<Maybe<SectorRotationResponseSectorsTail>>>;
};

export type SectorRotationResponseSectorsTail = {
  __typename?: 'SectorRotationResponseSectorsTail';
  date?: Maybe<Scalars['String']['output']>;
  quadrant?: Maybe<Scalars['String']['output']>;
  rsMomentum?: Maybe<Scalars['Float']['output']>;
  rsRatio?: Maybe<Scalars['Float']['output']>;
};

export type ShortInterestReport = {
  __typename?: 'ShortInterestReport';
  avgDailyVolume?: Maybe<Scalars['Float']['output']>;
  change?: Maybe<Scalars['Float']['output']>;
  changePct?: Maybe<Scalars['Float']['output']>;
  daysToCover?: Maybe<Scalars['Float']['output']>;
  /** Shares short ÷ free float, % */
  percentOfFloat?: Maybe<Scalars['Float']['output']>;
  previousSharesShort?: Maybe<Scalars['Float']['output']>;
  settlementDate?: Maybe<Scalars['String']['output']>;
  sharesShort?: Maybe<Scalars['Float']['output']>;
  source?: Maybe<Scalars['String']['output']>;
};

export type ShortInterestResponse = {
  __typename?: 'ShortInterestResponse';
  snapshot?: Maybe<ShortInterestReport>;
  source?: Maybe<Scalars['String']['output']>;
  squeeze?: Maybe<Scalars['JSON']['output']>;
  squeezeRisk?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
};

export type Signal = {
  __typename?: 'Signal';
  /** 50-bar average close × volume, USD */
  avgDollarVolume?: Maybe<Scalars['Float']['output']>;
  breakoutState?: Maybe<Scalars['String']['output']>;
  /** Breakout bar volume ÷ its 50-bar average, once triggered */
  breakoutVolumeRatio?: Maybe<Scalars['Float']['output']>;
  /** Each component in [0, 1], null without data (kernels/scoring weighs them) */
  components?: Maybe<ScoreComponents>;
  /** The calibrated probability that the ledger records a win (target1 before the stop while the lifecycle holds), from the fitted model; judged in /api/scorecard `calibration.confidence` (Brier score and reliability) */
  confidence?: Maybe<Scalars['Float']['output']>;
  detectedAt?: Maybe<Scalars['String']['output']>;
  direction?: Maybe<Scalars['String']['output']>;
  /** Distance of that close beyond the trigger in the setup’s direction, % */
  distancePct?: Maybe<Scalars['Float']['output']>;
  /** GET /api/earnings of the signal's symbol, first page (batched per request) */
  earnings?: Maybe<EarningsResponse>;
  /** How reachable target1 is, as the record shows it: the fitted score (kernels/score-table, fitted on the replayed history 2005–2016) ranks setups by their expected R and chance of a recorded win. It is not edge: out of sample no band beats random entries with the same geometry on the same day (/api/scorecard `edge` says what the current record shows) */
  finalScore?: Maybe<Scalars['Float']['output']>;
  geometry?: Maybe<SignalGeometry>;
  /** SYMBOL-pattern-detectedAt */
  id?: Maybe<Scalars['String']['output']>;
  patternFamily?: Maybe<Scalars['String']['output']>;
  patternType?: Maybe<Scalars['String']['output']>;
  /** Close at the scan */
  price?: Maybe<Scalars['Float']['output']>;
  reasons?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  /** IBD-style RS rank 1–99 in the universe */
  rsRank?: Maybe<Scalars['Float']['output']>;
  /** elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore */
  scoreBand?: Maybe<Scalars['String']['output']>;
  /** GET /api/snapshot of the signal's symbol (batched per request) */
  snapshot?: Maybe<SnapshotResponse>;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  target1?: Maybe<Scalars['Float']['output']>;
  timeframe?: Maybe<Scalars['String']['output']>;
  trendRegime?: Maybe<Scalars['String']['output']>;
  triggerPrice?: Maybe<Scalars['Float']['output']>;
};

export type SignalConnection = {
  __typename?: 'SignalConnection';
  edges: Array<SignalEdge>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type SignalEdge = {
  __typename?: 'SignalEdge';
  cursor: Scalars['String']['output'];
  node: Signal;
};

export type SignalGeometry = {
  __typename?: 'SignalGeometry';
  /** Successive contractions (VCP pullbacks, triangle touches); 0 where it means nothing */
  contractions?: Maybe<Scalars['Float']['output']>;
  /** (highest high − lowest low) ÷ highest high, % */
  depthPct?: Maybe<Scalars['Float']['output']>;
  /** Time of the pattern's last bar */
  end?: Maybe<Scalars['String']['output']>;
  lengthBars?: Maybe<Scalars['Float']['output']>;
  /** Time of the pattern's first bar */
  start?: Maybe<Scalars['String']['output']>;
};

export type SnapshotResponse = {
  __typename?: 'SnapshotResponse';
  /** price − previousClose */
  change?: Maybe<Scalars['Float']['output']>;
  /** 100 × change / previousClose */
  changePercent?: Maybe<Scalars['Float']['output']>;
  dayHigh?: Maybe<Scalars['Float']['output']>;
  dayLow?: Maybe<Scalars['Float']['output']>;
  marketOpen?: Maybe<Scalars['Boolean']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  open?: Maybe<Scalars['Float']['output']>;
  previousClose?: Maybe<Scalars['Float']['output']>;
  price?: Maybe<Scalars['Float']['output']>;
  sector?: Maybe<Scalars['String']['output']>;
  source?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  ts?: Maybe<Scalars['String']['output']>;
  /** Session volume so far */
  volume?: Maybe<Scalars['Float']['output']>;
};

export type StateChangeEvent = {
  __typename?: 'StateChangeEvent';
  /** Time of that bar */
  at?: Maybe<Scalars['String']['output']>;
  /** null for a signal first seen past forming */
  from?: Maybe<Scalars['String']['output']>;
  /** Close of the bar that moved it */
  price?: Maybe<Scalars['Float']['output']>;
  signalId?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  to?: Maybe<Scalars['String']['output']>;
};

export type Subscription = {
  __typename?: 'Subscription';
  /** alerts.dispatched of the caller's own rules (with the rule), as its owner's /api/stream sends them; needs a credential */
  alertDispatched?: Maybe<AlertDispatchedEvent>;
  /** breakouts.new, as GET /api/stream sends it */
  breakoutNew?: Maybe<BreakoutNewEvent>;
  /** breakouts.state_change, as GET /api/stream sends it */
  breakoutStateChange?: Maybe<StateChangeEvent>;
};

export type TrendTemplate = {
  __typename?: 'TrendTemplate';
  /** The criteria not met, in words */
  failed?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  met?: Maybe<Scalars['Int']['output']>;
  /** All eight criteria met */
  passed?: Maybe<Scalars['Boolean']['output']>;
};

export type UniverseScanResponse = {
  __typename?: 'UniverseScanResponse';
  asOf?: Maybe<Scalars['String']['output']>;
  benchmark?: Maybe<Scalars['String']['output']>;
  count?: Maybe<Scalars['JSON']['output']>;
  filters?: Maybe<UniverseScanResponseFilters>;
  generatedAt?: Maybe<Scalars['String']['output']>;
  method?: Maybe<Scalars['String']['output']>;
  ok?: Maybe<Scalars['Boolean']['output']>;
  ranked?: Maybe<Array<Maybe<UniverseScanResponseRanked>>>;
  regime?: Maybe<Scalars['JSON']['output']>;
  regimeMultiplier?: Maybe<Scalars['Float']['output']>;
  source?: Maybe<Scalars['String']['output']>;
  /** Symbols in the chosen universes before filters */
  universeSize?: Maybe<Scalars['JSON']['output']>;
};

export type UniverseScanResponseFilters = {
  __typename?: 'UniverseScanResponseFilters';
  limit?: Maybe<Scalars['JSON']['output']>;
  minAvgVolUsd?: Maybe<Scalars['Float']['output']>;
  minRsRank?: Maybe<Scalars['Float']['output']>;
};

export type UniverseScanResponseRanked = {
  __typename?: 'UniverseScanResponseRanked';
  /** 50-day average of close × volume, USD */
  avgDollarVolume?: Maybe<Scalars['Float']['output']>;
  /** The highest-scoring live setup, or null */
  bestSetup?: Maybe<BreakoutSignal>;
  indices?: Maybe<Array<Maybe<Scalars['String']['output']>>>;
  name?: Maybe<Scalars['String']['output']>;
  price?: Maybe<Scalars['Float']['output']>;
  rsRank?: Maybe<Scalars['JSON']['output']>;
  /** 0.4·ROC63 + 0.2·(ROC126 + ROC189 + ROC252) */
  rsScore?: Maybe<Scalars['Float']['output']>;
  sector?: Maybe<Scalars['String']['output']>;
  symbol?: Maybe<Scalars['String']['output']>;
  trendRegime?: Maybe<Scalars['String']['output']>;
  trendTemplate?: Maybe<TrendTemplate>;
};

export type Watchlist = {
  __typename?: 'Watchlist';
  /** When it was created */
  createdAt?: Maybe<Scalars['String']['output']>;
  /** wl_… */
  id?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  /** In the order they were added */
  symbols?: Maybe<Array<Maybe<WatchlistSymbols>>>;
  /** When it last changed */
  updatedAt?: Maybe<Scalars['String']['output']>;
};

export type WatchlistPage = {
  __typename?: 'WatchlistPage';
  items?: Maybe<Array<Maybe<Watchlist>>>;
  pagination?: Maybe<PageMeta>;
};

export type WatchlistSymbols = {
  __typename?: 'WatchlistSymbols';
  /** The symbol’s newest signal of any timeframe and state; null when none was ever surfaced */
  latestSignal?: Maybe<LatestSignal>;
  symbol?: Maybe<Scalars['String']['output']>;
};

export type TopSignalsQueryVariables = Exact<{
  first?: number | null | undefined;
  timeframe?: string | null | undefined;
  after?: string | null | undefined;
}>;


export type TopSignalsQuery = { signals: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { id: string | null, symbol: string | null, patternType: string | null, finalScore: number | null, scoreBand: string | null, breakoutState: string | null } }> } };

export type SignalWithSnapshotQueryVariables = Exact<{
  id: string;
}>;


export type SignalWithSnapshotQuery = { signal: { id: string | null, symbol: string | null, finalScore: number | null, snapshot: { price: number | null, changePercent: number | null } | null } | null };

export type NewBreakoutsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type NewBreakoutsSubscription = { breakoutNew: { signal: { id: string | null, symbol: string | null, finalScore: number | null } | null } | null };
