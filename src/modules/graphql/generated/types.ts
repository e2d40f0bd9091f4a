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
  alertId: Scalars['String']['output'];
  at: Scalars['String']['output'];
  /** The rule’s id and name */
  rule?: Maybe<AlertRuleRef>;
  ruleId?: Maybe<Scalars['String']['output']>;
  signalId: Scalars['String']['output'];
  symbol: Scalars['String']['output'];
};

/** Each block reason of the alert policy with the record of the signals it blocked beside those it let through */
export type AlertPolicyRecord = {
  __typename?: 'AlertPolicyRecord';
  /** Per block reason: the signals it blocked, and let through − blocked mean R and same-day lift */
  byReason: Scalars['JSON']['output'];
  /** Closed daily trades whose signal was alert-eligible when surfaced */
  eligible: Scalars['Float']['output'];
  /** Which ledger the figures come from */
  ledger: LedgerResponseSource;
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  letThrough: RecordFigures;
  /** Closed daily trades whose record carries no alert verdict (written before it was kept) */
  withoutVerdict: Scalars['Float']['output'];
};

export type AlertRule = {
  __typename?: 'AlertRule';
  channels: AlertRuleChannels;
  cooldownMinutes: Scalars['Float']['output'];
  /** When it was created */
  createdAt: Scalars['String']['output'];
  direction: AlertRuleDirection;
  enabled: Scalars['Boolean']['output'];
  /** rul_… */
  id: Scalars['String']['output'];
  minBand?: Maybe<SignalScoreBand>;
  minScore?: Maybe<Scalars['Float']['output']>;
  name: Scalars['String']['output'];
  /** Null → any */
  patternTypes?: Maybe<Array<SignalPatternType>>;
  states: Array<SignalBreakoutState>;
  /** Null when the rule watches a watchlist */
  symbols?: Maybe<Array<Scalars['String']['output']>>;
  timeframe: Scalars['String']['output'];
  /** When it last changed */
  updatedAt: Scalars['String']['output'];
  watchlistId?: Maybe<Scalars['String']['output']>;
};

export type AlertRuleChannels = {
  __typename?: 'AlertRuleChannels';
  inApp: Scalars['Boolean']['output'];
  webhook?: Maybe<AlertRuleChannelsWebhook>;
};

export type AlertRuleChannelsWebhook = {
  __typename?: 'AlertRuleChannelsWebhook';
  /** whsec_…: the Standard Webhooks signing secret, shown only when it is made (create, a new URL, rotateSecret) */
  secret?: Maybe<Scalars['String']['output']>;
  url: Scalars['String']['output'];
};

export type AlertRuleDirection =
  | 'any'
  | 'long'
  | 'short';

export type AlertRulePage = {
  __typename?: 'AlertRulePage';
  items: Array<AlertRule>;
  pagination: PageMeta;
};

/** The rule’s id and name */
export type AlertRuleRef = {
  __typename?: 'AlertRuleRef';
  id: Scalars['String']['output'];
  name: Scalars['String']['output'];
};

export type ApiKey = {
  __typename?: 'ApiKey';
  /** When the key was created */
  createdAt: Scalars['String']['output'];
  /** key_… */
  id: Scalars['String']['output'];
  /** Last authenticated request, to within a minute (written in batches); null when never used */
  lastUsedAt?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  /** The key's first characters (bk_ and 8 more), to recognise it; the rest is never shown again */
  prefix: Scalars['String']['output'];
  /** When the key was revoked; null while it is active */
  revokedAt?: Maybe<Scalars['String']['output']>;
  /** What the key was given (it acts with those its owner's current tier allows) */
  scopes: Array<Scalars['String']['output']>;
  /** Account tier: free < pro < enterprise */
  tier: ApiKeyTier;
};

export type ApiKeyList = {
  __typename?: 'ApiKeyList';
  /** Your keys, newest first, revoked ones included */
  keys: Array<ApiKey>;
};

export type ApiKeyTier =
  | 'enterprise'
  | 'free'
  | 'pro';

/** Adjacent bands used, low → high */
export type BandStep = {
  __typename?: 'BandStep';
  higher: Scalars['String']['output'];
  higherHitRate: HitRateInterval;
  hitRateDelta: Scalars['Float']['output'];
  hitRateIntervalsOverlap: Scalars['Boolean']['output'];
  lower: Scalars['String']['output'];
  lowerHitRate: HitRateInterval;
  meanRDelta: Scalars['Float']['output'];
};

export type BarsResponse = {
  __typename?: 'BarsResponse';
  /** Bars of the page, oldest first (newest last) */
  bars: Array<PriceBar>;
  pagination?: Maybe<PageMeta>;
  range: Scalars['String']['output'];
  /** Where the bars come from: the provider's name, e.g. synthetic, csv, yahoo (additive) */
  source: Scalars['String']['output'];
  symbol: Scalars['String']['output'];
  /** Bar timeframe (additive) */
  timeframe: Scalars['String']['output'];
};

export type BreakoutHistoryResponse = {
  __typename?: 'BreakoutHistoryResponse';
  filters: BreakoutHistoryResponseFilters;
  items: Array<HistorySignal>;
  pagination: PageMeta;
  /** The page (same as items) */
  signals: Array<HistorySignal>;
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
  signal: BreakoutSignal;
};

export type BreakoutSignal = {
  __typename?: 'BreakoutSignal';
  /** 50-bar average close × volume, USD */
  avgDollarVolume?: Maybe<Scalars['Float']['output']>;
  breakoutState: SignalBreakoutState;
  /** Breakout bar volume ÷ its 50-bar average, once triggered */
  breakoutVolumeRatio?: Maybe<Scalars['Float']['output']>;
  /** Each component in [0, 1], null without data (kernels/scoring weighs them) */
  components: ScoreComponents;
  /** The calibrated probability that the ledger records a win (target1 before the stop while the lifecycle holds), from the fitted model; judged in /api/scorecard `calibration.confidence` (Brier score and reliability) */
  confidence: Scalars['Float']['output'];
  detectedAt: Scalars['String']['output'];
  direction: SignalDirection;
  /** Distance of that close beyond the trigger in the setup’s direction, % */
  distancePct: Scalars['Float']['output'];
  /** How reachable target1 is, as the record shows it: the fitted score (kernels/score-table, fitted on the replayed history 2005–2016) ranks setups by their expected R and chance of a recorded win. It is not edge: out of sample no band beats random entries with the same geometry on the same day (/api/scorecard `edge` says what the current record shows) */
  finalScore: Scalars['Float']['output'];
  geometry: SignalGeometry;
  /** SYMBOL-pattern-detectedAt */
  id: Scalars['String']['output'];
  patternFamily: SignalPatternFamily;
  patternType: SignalPatternType;
  /** Close at the scan */
  price: Scalars['Float']['output'];
  reasons: Array<Scalars['String']['output']>;
  /** IBD-style RS rank 1–99 in the universe */
  rsRank?: Maybe<Scalars['Float']['output']>;
  /** elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore */
  scoreBand: SignalScoreBand;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol: Scalars['String']['output'];
  target1: Scalars['Float']['output'];
  timeframe: Scalars['String']['output'];
  trendRegime: SignalTrendRegime;
  triggerPrice: Scalars['Float']['output'];
};

export type BreakoutsResponse = {
  __typename?: 'BreakoutsResponse';
  alertBlocked: Array<BreakoutsResponseAlertBlocked>;
  alertCandidates: Array<BreakoutSignal>;
  alertSummary: Scalars['JSON']['output'];
  alertThresholds: Scalars['JSON']['output'];
  asOf?: Maybe<Scalars['String']['output']>;
  generatedAt: Scalars['String']['output'];
  items: Array<BreakoutSignal>;
  /** The latest persisted run: id, timeframe, asOf (the bar it stood on), startedAt, finishedAt, durationMs, symbolsScanned, signalsFound, status, source, and staleSeries: the series left out because their data ended more than one session of bars before asOf ({symbol, lastBar, barsBehind}; null on runs stored before it was recorded) */
  latestPersistedRun?: Maybe<Scalars['JSON']['output']>;
  pagination: PageMeta;
  /** This page of the ranking (by finalScore, best first); the same list as items. In the rollup view: the best signal of each symbol of the page */
  rankedSignals: Array<BreakoutSignal>;
  /** The market regime of the run (kernels/regime), null when it could not be read */
  regime?: Maybe<MarketRegime>;
  /** The newest persisted runs, newest first, each as latestPersistedRun */
  runHistory: Array<Scalars['JSON']['output']>;
  /** In the rollup view: this page of the symbols, each {symbol, bestSignal, count, patterns} */
  symbolRollups?: Maybe<Array<Scalars['JSON']['output']>>;
  view?: Maybe<Scalars['String']['output']>;
};

export type BreakoutsResponseAlertBlocked = {
  __typename?: 'BreakoutsResponseAlertBlocked';
  /** The same reasons as codes: extended | illiquid | regime | earnings | cooldown */
  codes: Array<Scalars['String']['output']>;
  /** Each reason in words, with its numbers */
  reasons: Array<Scalars['String']['output']>;
  signal: BreakoutSignal;
};

export type CommunityFeedPage = {
  __typename?: 'CommunityFeedPage';
  items: Array<CommunityPost>;
  pagination: PageMeta;
};

export type CommunityPost = {
  __typename?: 'CommunityPost';
  /** A stable pseudonym of the author (usr_ and 16 hex digits of a SHA-256 of the user id): the feed does not publish identity-provider ids */
  author: Scalars['String']['output'];
  body: Scalars['String']['output'];
  createdAt: Scalars['String']['output'];
  editedAt?: Maybe<Scalars['String']['output']>;
  /** pst_… */
  id: Scalars['String']['output'];
  signalId?: Maybe<Scalars['String']['output']>;
  symbols: Array<Scalars['String']['output']>;
};

export type ConfluenceResponse = {
  __typename?: 'ConfluenceResponse';
  /** 0..1 */
  agreement: Scalars['Float']['output'];
  /** Time of the bar evaluated */
  asOf: Scalars['String']['output'];
  /** Bars of history read */
  bars: Scalars['Float']['output'];
  benchmark: Scalars['String']['output'];
  /** 0..1 */
  coverage: Scalars['Float']['output'];
  direction: ConfluenceResponseDirection;
  factors: Array<ConfluenceResponseFactors>;
  higherTimeframe: ConfluenceResponseHigherTimeframe;
  lookback: ConfluenceResponseLookback;
  /** How each figure is computed, in words */
  method: ConfluenceResponseMethod;
  ok: Scalars['Boolean']['output'];
  /** −100..100 */
  score: Scalars['Float']['output'];
  symbol: Scalars['String']['output'];
  timeframe: Scalars['String']['output'];
};

export type ConfluenceResponseDirection =
  | 'bearish'
  | 'bullish'
  | 'neutral';

export type ConfluenceResponseFactors = {
  __typename?: 'ConfluenceResponseFactors';
  /** The reading in words, with its numbers */
  detail: Scalars['String']['output'];
  /** trend | momentum | volume | volatilityContraction | relativeStrength | higherTimeframe | activePatterns */
  name: Scalars['String']['output'];
  /** The number the vote rests on, null without evidence */
  value?: Maybe<Scalars['Float']['output']>;
  vote: Scalars['Int']['output'];
  weight: Scalars['Float']['output'];
};

export type ConfluenceResponseHigherTimeframe =
  | 'daily'
  | 'weekly';

export type ConfluenceResponseLookback = {
  __typename?: 'ConfluenceResponseLookback';
  effective: Scalars['Float']['output'];
  requested: Scalars['Float']['output'];
};

/** How each figure is computed, in words */
export type ConfluenceResponseMethod = {
  __typename?: 'ConfluenceResponseMethod';
  agreement: Scalars['String']['output'];
  coverage: Scalars['String']['output'];
  direction: Scalars['String']['output'];
  lookback: Scalars['String']['output'];
  noLookAhead: Scalars['String']['output'];
  score: Scalars['String']['output'];
  /** Each factor's weight (kernels/confluence CONFLUENCE_WEIGHTS; they sum to 1) */
  weights: ConfluenceResponseMethodWeights;
};

/** Each factor's weight (kernels/confluence CONFLUENCE_WEIGHTS; they sum to 1) */
export type ConfluenceResponseMethodWeights = {
  __typename?: 'ConfluenceResponseMethodWeights';
  activePatterns: Scalars['Float']['output'];
  higherTimeframe: Scalars['Float']['output'];
  momentum: Scalars['Float']['output'];
  relativeStrength: Scalars['Float']['output'];
  trend: Scalars['Float']['output'];
  volatilityContraction: Scalars['Float']['output'];
  volume: Scalars['Float']['output'];
};

export type CreateAlertRuleChannelsInput = {
  /** An in-app notification (GET /api/notifications); default true */
  inApp?: InputMaybe<Scalars['Boolean']['input']>;
  /** A signed POST to your URL (pro tier and above); null removes it */
  webhook?: InputMaybe<CreateAlertRuleChannelsWebhookInput>;
};

export type CreateAlertRuleChannelsWebhookInput = {
  /** PATCH: issue a new signing secret for the same URL */
  rotateSecret?: InputMaybe<Scalars['Boolean']['input']>;
  /** https:// only; an address resolving to a loopback, private or link-local range is refused */
  url: Scalars['String']['input'];
};

export type CreateExportFiltersInput = {
  /** ledger: only this pattern type */
  patternType?: InputMaybe<Scalars['String']['input']>;
  /** ledger: only this score band */
  scoreBand?: InputMaybe<Scalars['String']['input']>;
  /** ledger: signals detected on or after this date */
  since?: InputMaybe<Scalars['String']['input']>;
  /** journal: only this symbol */
  symbol?: InputMaybe<Scalars['String']['input']>;
  /** journal: only entries with this tag */
  tag?: InputMaybe<Scalars['String']['input']>;
  /** ledger: signals detected on or before this date */
  until?: InputMaybe<Scalars['String']['input']>;
};

export type CreatedApiKey = {
  __typename?: 'CreatedApiKey';
  /** When the key was created */
  createdAt: Scalars['String']['output'];
  /** key_… */
  id: Scalars['String']['output'];
  /** The whole key, shown this once: store it now (only its hash is kept) */
  key: Scalars['String']['output'];
  /** Last authenticated request, to within a minute (written in batches); null when never used */
  lastUsedAt?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  /** The key's first characters (bk_ and 8 more), to recognise it; the rest is never shown again */
  prefix: Scalars['String']['output'];
  /** When the key was revoked; null while it is active */
  revokedAt?: Maybe<Scalars['String']['output']>;
  /** What the key was given (it acts with those its owner's current tier allows) */
  scopes: Array<Scalars['String']['output']>;
  /** Account tier: free < pro < enterprise */
  tier: ApiKeyTier;
};

export type EarningsProximity = {
  __typename?: 'EarningsProximity';
  alertBlockTradingDays: Scalars['Float']['output'];
  asOf: Scalars['String']['output'];
  /** The signal engine blocks alerts this close to a report (DESIGN §4) */
  blocksAlerts: Scalars['Boolean']['output'];
  calendarDaysUntil?: Maybe<Scalars['Float']['output']>;
  holdingWindowTradingDays: Scalars['Float']['output'];
  lastReport?: Maybe<Scalars['String']['output']>;
  nextReport?: Maybe<Scalars['String']['output']>;
  timing?: Maybe<Scalars['String']['output']>;
  tradingDaysSinceLast?: Maybe<Scalars['Float']['output']>;
  tradingDaysUntil?: Maybe<Scalars['Float']['output']>;
  /** The next report falls inside a typical holding window from today */
  withinHoldingWindow: Scalars['Boolean']['output'];
};

export type EarningsReport = {
  __typename?: 'EarningsReport';
  /** Report date (US/Eastern) */
  date: Scalars['String']['output'];
  epsActual?: Maybe<Scalars['Float']['output']>;
  epsEstimate?: Maybe<Scalars['Float']['output']>;
  fiscalPeriodEnding?: Maybe<Scalars['String']['output']>;
  /** Opening gap of the reaction session vs the previous close, % */
  gapPct?: Maybe<Scalars['Float']['output']>;
  /** Close of the reaction session vs the previous close, % */
  movePct?: Maybe<Scalars['Float']['output']>;
  /** The session that first trades on the news: the report day for bmo, the next session for amc/unknown */
  reactionSession?: Maybe<Scalars['String']['output']>;
  source: Scalars['String']['output'];
  /** reported | scheduled */
  status: Scalars['String']['output'];
  /** (actual − estimate) ÷ |estimate| × 100 */
  surprisePct?: Maybe<Scalars['Float']['output']>;
  /** bmo (before the open), amc (after the close) or unknown */
  timing: Scalars['String']['output'];
  /** Sessions from today to the report (negative for past reports) */
  tradingDaysAway: Scalars['Float']['output'];
};

export type EarningsResponse = {
  __typename?: 'EarningsResponse';
  /** This page of the calendar (same list as items) */
  calendar: Array<EarningsReport>;
  items: Array<EarningsReport>;
  pagination: PageMeta;
  proximity?: Maybe<EarningsProximity>;
  source: Scalars['String']['output'];
  symbol: Scalars['String']['output'];
};

/** Whether the signals show edge over same-day random entries, computed from the current record */
export type EdgeStatement = {
  __typename?: 'EdgeStatement';
  basis: Scalars['String']['output'];
  /** Which ledger the figures come from */
  ledger: LedgerResponseSource;
  /** What the current record shows, in one sentence, e.g. "no band beats same-day random entries: the best, elite, lift −0.3 pp [−1.2, +0.6]; …" */
  statement: Scalars['String']['output'];
  /** edge: some score band beats same-day random entries (its lift interval lies above 0); none: no band does; insufficient: too few trades */
  verdict: MonthlyEdgeStatementVerdict;
};

export type Export = {
  __typename?: 'Export';
  createdAt: Scalars['String']['output'];
  dataset: ExportDataset;
  /** Where to download it while done */
  downloadUrl?: Maybe<Scalars['String']['output']>;
  /** Why it failed */
  error?: Maybe<Scalars['String']['output']>;
  /** When a done export stops being downloadable */
  expiresAt?: Maybe<Scalars['String']['output']>;
  /** As asked */
  filters: Scalars['JSON']['output'];
  /** When it was done or failed */
  finishedAt?: Maybe<Scalars['String']['output']>;
  format: ExportFormat;
  /** exp_… */
  id: Scalars['String']['output'];
  /** Records in the file, once done */
  rowCount?: Maybe<Scalars['Float']['output']>;
  /** Size of the file, once done */
  sizeBytes?: Maybe<Scalars['Float']['output']>;
  /** When it started running */
  startedAt?: Maybe<Scalars['String']['output']>;
  /** queued → running → done | failed; a done export becomes expired after EXPORTS_TTL_HOURS */
  status: ExportStatus;
};

export type ExportDataset =
  | 'journal'
  | 'ledger';

export type ExportFormat =
  | 'csv'
  | 'json';

export type ExportPage = {
  __typename?: 'ExportPage';
  items: Array<Export>;
  pagination: PageMeta;
};

export type ExportStatus =
  | 'done'
  | 'expired'
  | 'failed'
  | 'queued'
  | 'running';

export type FloatResponse = {
  __typename?: 'FloatResponse';
  /** Average daily volume of the last 50 complete sessions */
  averageVolume?: Maybe<Scalars['Float']['output']>;
  caveat: Scalars['String']['output'];
  /** Volume-rotation class from the days it takes to trade the float once */
  classification: Scalars['String']['output'];
  /** 1 ÷ ratio: sessions to trade the whole float at the average volume */
  daysToRotate?: Maybe<Scalars['Float']['output']>;
  float: FloatResponseFloat;
  /** micro (< 10M shares), low (< 50M), mid (< 500M), large, or unknown */
  floatSize: Scalars['String']['output'];
  /** Average daily volume (50 sessions) ÷ free float: the share of the float traded a day */
  ratio?: Maybe<Scalars['Float']['output']>;
  symbol: Scalars['String']['output'];
  /** The classification thresholds in days to rotate, per class (fundamentals/service ROTATION_CLASSES) */
  thresholds: RotationThresholds;
};

export type FloatResponseFloat = {
  __typename?: 'FloatResponseFloat';
  asOf?: Maybe<Scalars['String']['output']>;
  freeFloat?: Maybe<Scalars['Float']['output']>;
  shareOutstanding?: Maybe<Scalars['Float']['output']>;
  source: Scalars['String']['output'];
};

export type ForecastConePoint = {
  __typename?: 'ForecastConePoint';
  /** The session (NYSE calendar) */
  date: Scalars['String']['output'];
  /** Trading days ahead */
  day: Scalars['Float']['output'];
  p5: Scalars['Float']['output'];
  p25: Scalars['Float']['output'];
  p50: Scalars['Float']['output'];
  p75: Scalars['Float']['output'];
  p95: Scalars['Float']['output'];
};

export type ForecastResponse = {
  __typename?: 'ForecastResponse';
  /** The highest-scoring live setup of the symbol on the daily scan at asOf, or null */
  activePattern?: Maybe<ForecastResponseActivePattern>;
  /** Session of the last close used */
  asOf: Scalars['String']['output'];
  calibration: ForecastResponseCalibration;
  /** Quantiles for each day 1..horizon */
  cone: Array<ForecastConePoint>;
  /** Why the requested model was not used, or null */
  fallback?: Maybe<Scalars['String']['output']>;
  /** Trading days ahead */
  horizon: Scalars['Float']['output'];
  /** How each figure is computed, in words */
  method: ForecastResponseMethod;
  /** The model used */
  model: ForecastResponseModel;
  ok: Scalars['Boolean']['output'];
  /** That close */
  price: Scalars['Float']['output'];
  /** At the horizon (the cone’s last point) */
  quantiles: ForecastResponseQuantiles;
  requestedModel: ForecastResponseModel;
  symbol: Scalars['String']['output'];
  /** Ledger figures of the active pattern (all symbols, and this symbol alone); null without an active pattern */
  trackRecord?: Maybe<ForecastResponseTrackRecord>;
  volatility: ForecastResponseVolatility;
};

export type ForecastResponseActivePattern = {
  __typename?: 'ForecastResponseActivePattern';
  detectedAt: Scalars['String']['output'];
  direction: SignalDirection;
  finalScore: Scalars['Float']['output'];
  patternFamily: Scalars['String']['output'];
  patternType: Scalars['String']['output'];
  pivot: Scalars['Float']['output'];
  /** P(close at the horizon beyond the stop) */
  probabilityBeyondStop: Scalars['Float']['output'];
  /** P(close at the horizon beyond target1 in the trade’s direction), from the cone */
  probabilityBeyondTarget: Scalars['Float']['output'];
  scoreBand: Scalars['String']['output'];
  state: Scalars['String']['output'];
  stopLoss: Scalars['Float']['output'];
  target1: Scalars['Float']['output'];
};

export type ForecastResponseCalibration = {
  __typename?: 'ForecastResponseCalibration';
  /** Share inside the 25–75% band */
  band50?: Maybe<Scalars['Float']['output']>;
  /** Share of realised horizon moves inside the 5–95% band */
  band90?: Maybe<Scalars['Float']['output']>;
  /** True for EWMA; GARCH parameters are fitted on the same window (in-sample) */
  outOfSample: Scalars['Boolean']['output'];
  /** Past forecast origins checked (overlapping horizon windows) */
  windows: Scalars['Float']['output'];
};

/** How each figure is computed, in words */
export type ForecastResponseMethod = {
  __typename?: 'ForecastResponseMethod';
  activePattern: Scalars['String']['output'];
  calibration: Scalars['String']['output'];
  cone: Scalars['String']['output'];
  ewma: Scalars['String']['output'];
  garch: Scalars['String']['output'];
  horizon: Scalars['String']['output'];
  noLookAhead: Scalars['String']['output'];
  returns: Scalars['String']['output'];
  trackRecord: Scalars['String']['output'];
};

export type ForecastResponseModel =
  | 'ewma'
  | 'garch';

/** At the horizon (the cone’s last point) */
export type ForecastResponseQuantiles = {
  __typename?: 'ForecastResponseQuantiles';
  p5: Scalars['Float']['output'];
  p25: Scalars['Float']['output'];
  p50: Scalars['Float']['output'];
  p75: Scalars['Float']['output'];
  p95: Scalars['Float']['output'];
};

export type ForecastResponseTrackRecord = {
  __typename?: 'ForecastResponseTrackRecord';
  direction: Scalars['String']['output'];
  /** Signals detected and outcomes exited by then */
  knownAt: Scalars['String']['output'];
  pattern: Performance;
  patternType: Scalars['String']['output'];
  symbol: Performance;
  timeframe: Scalars['String']['output'];
};

export type ForecastResponseVolatility = {
  __typename?: 'ForecastResponseVolatility';
  /** daily × √252 */
  annualized: Scalars['Float']['output'];
  /** Forecast σ of tomorrow’s log return */
  daily: Scalars['Float']['output'];
  /** σ of the log return over the horizon, √V_h */
  horizon: Scalars['Float']['output'];
  /** Average annualised volatility over the horizon, √(252 · V_h / h) */
  horizonAnnualized: Scalars['Float']['output'];
  /** Gaussian log-likelihood of the GARCH fit; null for EWMA */
  logLikelihood?: Maybe<Scalars['Float']['output']>;
  /** GARCH long-run σ √(ω / (1 − α − β)); null for EWMA */
  longRunDaily?: Maybe<Scalars['Float']['output']>;
  /** Daily returns used */
  observations: Scalars['Float']['output'];
  params: ForecastResponseVolatilityParams;
};

export type ForecastResponseVolatilityParams = {
  __typename?: 'ForecastResponseVolatilityParams';
  alpha: Scalars['Float']['output'];
  beta: Scalars['Float']['output'];
  /** Days for a variance shock to halve; null for EWMA (no mean reversion) */
  halfLifeDays?: Maybe<Scalars['Float']['output']>;
  /** EWMA decay; null for GARCH */
  lambda?: Maybe<Scalars['Float']['output']>;
  omega: Scalars['Float']['output'];
  /** α + β */
  persistence: Scalars['Float']['output'];
};

/** verdict (rising | falling | mixed | insufficient), the computed statement, Spearman ρ, band steps with each band's weekly-clustered hit-rate interval */
export type HigherBandsDoBetter = {
  __typename?: 'HigherBandsDoBetter';
  bandsExcluded: Array<HigherBandsDoBetterBandsExcluded>;
  bandsUsed: Array<Scalars['String']['output']>;
  /** Spearman ρ of band order against hit rate */
  hitRateRho?: Maybe<Scalars['Float']['output']>;
  /** Spearman ρ of band order against mean R; null under two bands or when all are equal */
  meanRRho?: Maybe<Scalars['Float']['output']>;
  /** Bands with fewer closed trades are left out */
  minTrades: Scalars['Float']['output'];
  /** The computed statement, in words */
  statement: Scalars['String']['output'];
  steps: Array<BandStep>;
  verdict: HigherBandsDoBetterVerdict;
};

export type HigherBandsDoBetterBandsExcluded = {
  __typename?: 'HigherBandsDoBetterBandsExcluded';
  band: Scalars['String']['output'];
  trades: Scalars['Float']['output'];
};

export type HigherBandsDoBetterVerdict =
  | 'falling'
  | 'insufficient'
  | 'mixed'
  | 'rising';

export type HistorySignal = {
  __typename?: 'HistorySignal';
  breakoutState: Scalars['String']['output'];
  confidence: Scalars['Float']['output'];
  detectedAt: Scalars['String']['output'];
  direction: Scalars['String']['output'];
  finalScore: Scalars['Float']['output'];
  firstRunId: Scalars['String']['output'];
  id: Scalars['String']['output'];
  lastSeenRunId: Scalars['String']['output'];
  patternFamily: Scalars['String']['output'];
  patternType: Scalars['String']['output'];
  reasons: Array<Scalars['String']['output']>;
  scoreBand: Scalars['String']['output'];
  source: Scalars['String']['output'];
  /** Every recorded state change, oldest first */
  stateHistory: Array<HistorySignalStateHistory>;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol: Scalars['String']['output'];
  target1: Scalars['Float']['output'];
  timeframe: Scalars['String']['output'];
  trendRegime: Scalars['String']['output'];
  triggerPrice: Scalars['Float']['output'];
};

export type HistorySignalStateHistory = {
  __typename?: 'HistorySignalStateHistory';
  /** Bar time of the change */
  at: Scalars['String']['output'];
  from?: Maybe<Scalars['String']['output']>;
  price: Scalars['Float']['output'];
  recordedAt: Scalars['String']['output'];
  runId: Scalars['String']['output'];
  to: Scalars['String']['output'];
};

export type HitRateInterval = {
  __typename?: 'HitRateInterval';
  confidence: Scalars['Float']['output'];
  estimate: Scalars['Float']['output'];
  lower: Scalars['Float']['output'];
  successes: Scalars['Float']['output'];
  trials: Scalars['Float']['output'];
  upper: Scalars['Float']['output'];
};

export type InsiderResponse = {
  __typename?: 'InsiderResponse';
  from: Scalars['String']['output'];
  source: Scalars['String']['output'];
  summary: InsiderSummary;
  symbol: Scalars['String']['output'];
  to: Scalars['String']['output'];
  transactions: Array<InsiderTransaction>;
  windowDays: Scalars['Float']['output'];
};

export type InsiderSummary = {
  __typename?: 'InsiderSummary';
  buyCount: Scalars['Float']['output'];
  clusterBuyers: Array<Scalars['String']['output']>;
  /** At least clusterThreshold distinct insiders bought */
  clusterBuying: Scalars['Boolean']['output'];
  clusterThreshold: Scalars['Float']['output'];
  counts: Scalars['String']['output'];
  distinctBuyers: Scalars['Float']['output'];
  distinctSellers: Scalars['Float']['output'];
  largestTransaction?: Maybe<InsiderTransaction>;
  netShares: Scalars['Float']['output'];
  netValue: Scalars['Float']['output'];
  /** Per other Form 4 code (awards, withholding, exercises, gifts) */
  otherByCode: Scalars['JSON']['output'];
  sellCount: Scalars['Float']['output'];
  sharesBought: Scalars['Float']['output'];
  sharesSold: Scalars['Float']['output'];
  valueBought: Scalars['Float']['output'];
  valueSold: Scalars['Float']['output'];
};

export type InsiderTransaction = {
  __typename?: 'InsiderTransaction';
  /** A acquired, D disposed */
  acquiredDisposed: Scalars['String']['output'];
  /** SEC Form 4 transaction code */
  code: Scalars['String']['output'];
  codeDescription: Scalars['String']['output'];
  /** Transaction date */
  date: Scalars['String']['output'];
  filingDate: Scalars['String']['output'];
  filingUrl?: Maybe<Scalars['String']['output']>;
  insider: Scalars['String']['output'];
  price?: Maybe<Scalars['Float']['output']>;
  role: Scalars['String']['output'];
  shares: Scalars['Float']['output'];
  value?: Maybe<Scalars['Float']['output']>;
};

export type JournalEntry = {
  __typename?: 'JournalEntry';
  /** When it was created */
  createdAt: Scalars['String']['output'];
  entryAt: Scalars['String']['output'];
  entryPrice: Scalars['Float']['output'];
  exitAt?: Maybe<Scalars['String']['output']>;
  /** null while open */
  exitPrice?: Maybe<Scalars['Float']['output']>;
  fees: Scalars['Float']['output'];
  /** Calendar days from entry to exit (UTC), as the ledger counts daysHeld */
  holdingDays?: Maybe<Scalars['Float']['output']>;
  /** jrn_… */
  id: Scalars['String']['output'];
  /** |entry − stop| × size */
  initialRisk?: Maybe<Scalars['Float']['output']>;
  notes: Scalars['String']['output'];
  /** (exit − entry) × size × (+1 long, −1 short) − fees; null while open */
  pnl?: Maybe<Scalars['Float']['output']>;
  /** pnl ÷ initialRisk (fees count against R); null without a linked stop or while open */
  rMultiple?: Maybe<Scalars['Float']['output']>;
  /** Price move in the trade’s favour, % of entry, before fees */
  returnPct?: Maybe<Scalars['Float']['output']>;
  side: SignalDirection;
  signalId?: Maybe<Scalars['String']['output']>;
  size: Scalars['Float']['output'];
  status: JournalEntryStatus;
  /** The linked signal’s stop */
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol: Scalars['String']['output'];
  tags: Array<Scalars['String']['output']>;
  /** When it last changed */
  updatedAt: Scalars['String']['output'];
};

export type JournalEntryPage = {
  __typename?: 'JournalEntryPage';
  items: Array<JournalEntry>;
  pagination: PageMeta;
};

export type JournalEntryStatus =
  | 'closed'
  | 'open';

/** Like the public scorecard (GET /api/scorecard), over your journal: r holds the same figures, by the same definitions, over the entries whose linked signal gives a stop. */
export type JournalSummary = {
  __typename?: 'JournalSummary';
  /** Mean holding days of closed trades */
  avgHoldingDays?: Maybe<Scalars['Float']['output']>;
  breakeven: Scalars['Float']['output'];
  closed: Scalars['Float']['output'];
  entries: Scalars['Float']['output'];
  losses: Scalars['Float']['output'];
  open: Scalars['Float']['output'];
  pnl: JournalSummaryPnl;
  r: Performance;
  /** wins ÷ closed */
  winRate?: Maybe<Scalars['Float']['output']>;
  /** Wilson 95% */
  winRateInterval: JournalSummaryWinRateInterval;
  /** Closed with pnl > 0 */
  wins: Scalars['Float']['output'];
  /** Closed entries without a linked signal’s stop (not in r) */
  withoutStop: Scalars['Float']['output'];
};

export type JournalSummaryPnl = {
  __typename?: 'JournalSummaryPnl';
  /** Mean pnl per closed trade */
  average?: Maybe<Scalars['Float']['output']>;
  averageInterval: JournalSummaryPnlAverageInterval;
  /** Mean |pnl| of losers */
  averageLoss?: Maybe<Scalars['Float']['output']>;
  /** Mean pnl of winners */
  averageWin?: Maybe<Scalars['Float']['output']>;
  /** winRate × averageWin − lossRate × averageLoss, per trade (Tharp) */
  expectancy?: Maybe<Scalars['Float']['output']>;
  fees: Scalars['Float']['output'];
  /** Σ wins ÷ |Σ losses|; null without losses */
  profitFactor?: Maybe<Scalars['Float']['output']>;
  total: Scalars['Float']['output'];
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
  breakoutState: SignalBreakoutState;
  detectedAt: Scalars['String']['output'];
  direction: SignalDirection;
  finalScore: Scalars['Float']['output'];
  /** SYMBOL-pattern-detectedAt */
  id: Scalars['String']['output'];
  patternType: Scalars['String']['output'];
  scoreBand: Scalars['String']['output'];
  stopLoss?: Maybe<Scalars['Float']['output']>;
  target1: Scalars['Float']['output'];
  timeframe: Scalars['String']['output'];
  triggerPrice: Scalars['Float']['output'];
};

export type LedgerChainReport = {
  __typename?: 'LedgerChainReport';
  checkpoints: LedgerChainReportCheckpoints;
  count: Scalars['Float']['output'];
  durationMs: Scalars['Float']['output'];
  firstBadSeq?: Maybe<Scalars['Float']['output']>;
  /** The records after this seq were recomputed by this pass (0: all) */
  fromSeq: Scalars['Float']['output'];
  head: LedgerChainReportHead;
  ok: Scalars['Boolean']['output'];
  reason?: Maybe<Scalars['String']['output']>;
  /** full: every record recomputed; incremental: the records after fromSeq, chained to the head verified before */
  scope: LedgerVerifyResponseScope;
  /** When the pass ran; the report is reused while the ledger head is unchanged */
  verifiedAt: Scalars['String']['output'];
};

export type LedgerChainReportCheckpoints = {
  __typename?: 'LedgerChainReportCheckpoints';
  count: Scalars['Float']['output'];
  firstBadSeq?: Maybe<Scalars['Float']['output']>;
  verified: Scalars['Float']['output'];
};

export type LedgerChainReportHead = {
  __typename?: 'LedgerChainReportHead';
  hash: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
};

export type LedgerCheckpointsResponse = {
  __typename?: 'LedgerCheckpointsResponse';
  checkpoints: Array<LedgerCheckpointsResponseCheckpoints>;
  count: Scalars['Float']['output'];
};

export type LedgerCheckpointsResponseCheckpoints = {
  __typename?: 'LedgerCheckpointsResponseCheckpoints';
  count: Scalars['Float']['output'];
  createdAt: Scalars['String']['output'];
  headHash: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
};

export type LedgerRecord = {
  __typename?: 'LedgerRecord';
  events: Array<LedgerRecordEvents>;
  hash: Scalars['String']['output'];
  /** open, or win | loss | scratch with R-multiple, excursions, exit and holding time */
  outcome: Scalars['JSON']['output'];
  outcomeRecord?: Maybe<LedgerRecordOutcomeRecord>;
  prevHash: Scalars['String']['output'];
  recordedAt: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
  /** What was known when the signal was first surfaced (the hashed record) */
  signal: Scalars['JSON']['output'];
  state: Scalars['String']['output'];
};

export type LedgerRecordEvents = {
  __typename?: 'LedgerRecordEvents';
  at: Scalars['String']['output'];
  from?: Maybe<Scalars['String']['output']>;
  hash: Scalars['String']['output'];
  price: Scalars['Float']['output'];
  seq: Scalars['Float']['output'];
  to: Scalars['String']['output'];
};

export type LedgerRecordOutcomeRecord = {
  __typename?: 'LedgerRecordOutcomeRecord';
  hash: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
};

export type LedgerResponse = {
  __typename?: 'LedgerResponse';
  /** Signal records matching the filters (all pages) */
  count: Scalars['Float']['output'];
  filters: LedgerResponseFilters;
  head: LedgerResponseHead;
  records: Array<LedgerRecord>;
  /** The replay shown (source=replay), else null */
  replay?: Maybe<ReplaySummary>;
  /** Which ledger this shows */
  source: LedgerResponseSource;
};

export type LedgerResponseFilters = {
  __typename?: 'LedgerResponseFilters';
  limit: Scalars['Float']['output'];
  maxLimit: Scalars['Float']['output'];
  offset: Scalars['Float']['output'];
  patternType?: Maybe<Scalars['String']['output']>;
  scoreBand?: Maybe<Scalars['String']['output']>;
  since?: Maybe<Scalars['String']['output']>;
  until?: Maybe<Scalars['String']['output']>;
};

export type LedgerResponseHead = {
  __typename?: 'LedgerResponseHead';
  hash: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
};

export type LedgerResponseSource =
  | 'live'
  | 'replay';

export type LedgerVerifyResponse = {
  __typename?: 'LedgerVerifyResponse';
  /** Each chain on its own: the live ledger and the replay ledger */
  chains: LedgerVerifyResponseChains;
  /** Live chain */
  checkpoints: LedgerVerifyResponseCheckpoints;
  /** Live chain */
  count: Scalars['Float']['output'];
  /** Both chains */
  durationMs: Scalars['Float']['output'];
  /** Live chain */
  firstBadSeq?: Maybe<Scalars['Float']['output']>;
  /** Live chain: the records after this seq were recomputed by this pass (0: all) */
  fromSeq: Scalars['Float']['output'];
  /** Live chain */
  head: LedgerVerifyResponseHead;
  method: Scalars['String']['output'];
  /** Both chains hold */
  ok: Scalars['Boolean']['output'];
  /** Live chain, else the replay chain’s, prefixed "replay chain:" */
  reason?: Maybe<Scalars['String']['output']>;
  /** Live chain. full: every record recomputed; incremental: the records after fromSeq, chained to the head verified before */
  scope: LedgerVerifyResponseScope;
  /** Live chain: when the pass ran; the report is reused while the ledger head is unchanged */
  verifiedAt: Scalars['String']['output'];
};

/** Each chain on its own: the live ledger and the replay ledger */
export type LedgerVerifyResponseChains = {
  __typename?: 'LedgerVerifyResponseChains';
  live: LedgerChainReport;
  replay: LedgerChainReport;
};

/** Live chain */
export type LedgerVerifyResponseCheckpoints = {
  __typename?: 'LedgerVerifyResponseCheckpoints';
  count: Scalars['Float']['output'];
  firstBadSeq?: Maybe<Scalars['Float']['output']>;
  verified: Scalars['Float']['output'];
};

/** Live chain */
export type LedgerVerifyResponseHead = {
  __typename?: 'LedgerVerifyResponseHead';
  hash: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
};

export type LedgerVerifyResponseScope =
  | 'full'
  | 'incremental';

export type MacroCalendarResponse = {
  __typename?: 'MacroCalendarResponse';
  asOf: Scalars['String']['output'];
  count: Scalars['Float']['output'];
  /** How far the stored schedule of each kind reaches */
  coverage: Scalars['JSON']['output'];
  events: Array<MacroCalendarResponseEvents>;
  /** Per kind: the next release and its proximity (null when the published schedule does not reach that far) */
  next: Scalars['JSON']['output'];
  nextEvent?: Maybe<MacroCalendarResponseNextEvent>;
  timezone: Scalars['String']['output'];
  window: MacroCalendarResponseWindow;
};

export type MacroCalendarResponseEvents = {
  __typename?: 'MacroCalendarResponseEvents';
  at: Scalars['String']['output'];
  /** Release date in New York */
  date: Scalars['String']['output'];
  /** Where the date comes from (agency schedule page or data file) */
  source: Scalars['String']['output'];
  /** Release time in New York, HH:MM */
  time: Scalars['String']['output'];
  title: Scalars['String']['output'];
  type: MacroCalendarResponseEventsType;
};

export type MacroCalendarResponseEventsType =
  | 'cpi'
  | 'fomc'
  | 'gdp'
  | 'jobs';

export type MacroCalendarResponseNextEvent = {
  __typename?: 'MacroCalendarResponseNextEvent';
  at: Scalars['String']['output'];
  /** Release date in New York */
  date: Scalars['String']['output'];
  hoursUntil: Scalars['Float']['output'];
  /** Where the date comes from (agency schedule page or data file) */
  source: Scalars['String']['output'];
  /** Release time in New York, HH:MM */
  time: Scalars['String']['output'];
  title: Scalars['String']['output'];
  type: MacroCalendarResponseEventsType;
};

export type MacroCalendarResponseWindow = {
  __typename?: 'MacroCalendarResponseWindow';
  from: Scalars['String']['output'];
  to?: Maybe<Scalars['String']['output']>;
};

export type MarketRegime = {
  __typename?: 'MarketRegime';
  /** Share of the universe above its 50-bar SMA, 0..1 */
  breadth?: Maybe<Scalars['Float']['output']>;
  distributionDays: Scalars['Float']['output'];
  /** Multiplier of long scores */
  multiplier: Scalars['Float']['output'];
  points: Scalars['Float']['output'];
  reasons: Array<Scalars['String']['output']>;
  regime: MarketRegimeRegime;
  /** Multiplier of short scores */
  shortMultiplier: Scalars['Float']['output'];
};

export type MarketRegimeRegime =
  | 'neutral'
  | 'risk_off'
  | 'risk_on';

/** Each block reason of the alert policy with the record of the signals it blocked beside those it let through */
export type MonthlyAlertPolicyRecord = {
  __typename?: 'MonthlyAlertPolicyRecord';
  /** Per block reason: the signals it blocked, and let through − blocked mean R and same-day lift */
  byReason: Scalars['JSON']['output'];
  /** Closed daily trades whose signal was alert-eligible when surfaced */
  eligible: Scalars['Float']['output'];
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  letThrough: RecordFigures;
  /** Closed daily trades whose record carries no alert verdict (written before it was kept) */
  withoutVerdict: Scalars['Float']['output'];
};

/** Whether the signals show edge over same-day random entries, computed from the current record */
export type MonthlyEdgeStatement = {
  __typename?: 'MonthlyEdgeStatement';
  basis: Scalars['String']['output'];
  /** What the current record shows, in one sentence, e.g. "no band beats same-day random entries: the best, elite, lift −0.3 pp [−1.2, +0.6]; …" */
  statement: Scalars['String']['output'];
  /** edge: some score band beats same-day random entries (its lift interval lies above 0); none: no band does; insufficient: too few trades */
  verdict: MonthlyEdgeStatementVerdict;
};

export type MonthlyEdgeStatementVerdict =
  | 'edge'
  | 'insufficient'
  | 'none';

/** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced, for the signals detected in the month */
export type MonthlyRecordSection = {
  __typename?: 'MonthlyRecordSection';
  /** Each block reason of the alert policy with the record of the signals it blocked beside those it let through */
  alertPolicy: MonthlyAlertPolicyRecord;
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  all: RecordFigures;
  byBand: Scalars['JSON']['output'];
  byDirection: Scalars['JSON']['output'];
  byPattern: Scalars['JSON']['output'];
  byRegime: Scalars['JSON']['output'];
  byYear: Scalars['JSON']['output'];
  /** Whether the signals show edge over same-day random entries, computed from the current record */
  edge: MonthlyEdgeStatement;
  /** Which ledger the figures come from */
  ledger: LedgerResponseSource;
  /** Random entries drawn per trade and baseline */
  matches: Scalars['Float']['output'];
  method: Scalars['JSON']['output'];
  /** The universe the random entries were drawn from */
  universe: Scalars['String']['output'];
};

export type MonthlyResponse = {
  __typename?: 'MonthlyResponse';
  byBand: Scalars['JSON']['output'];
  byDirection: Scalars['JSON']['output'];
  byPattern: Scalars['JSON']['output'];
  byTimeframe: Scalars['JSON']['output'];
  from: Scalars['String']['output'];
  generatedAt: Scalars['String']['output'];
  ledgerHead: MonthlyResponseLedgerHead;
  method: Scalars['JSON']['output'];
  month: Scalars['String']['output'];
  /** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced, for the signals detected in the month */
  record: MonthlyRecordSection;
  /** The replay shown (source=replay), else null */
  replay?: Maybe<ReplaySummary>;
  signals: Array<MonthlySignal>;
  /** Which ledger this shows */
  source: LedgerResponseSource;
  summary: Performance;
  to: Scalars['String']['output'];
};

export type MonthlyResponseLedgerHead = {
  __typename?: 'MonthlyResponseLedgerHead';
  hash: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
};

export type MonthlySignal = {
  __typename?: 'MonthlySignal';
  detectedAt: Scalars['String']['output'];
  direction: Scalars['String']['output'];
  /** The price crossed the trigger */
  entered: Scalars['Boolean']['output'];
  id: Scalars['String']['output'];
  outcome: MonthlySignalOutcome;
  patternType: Scalars['String']['output'];
  /** Null while open or never entered */
  rMultiple?: Maybe<Scalars['Float']['output']>;
  scoreBand: Scalars['String']['output'];
  symbol: Scalars['String']['output'];
  timeframe: Scalars['String']['output'];
};

export type MonthlySignalOutcome =
  | 'loss'
  | 'open'
  | 'scratch'
  | 'win';

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
  id: Scalars['String']['input'];
  symbols: Array<InputMaybe<Scalars['String']['input']>>;
};


export type MutationCreateAlertRuleArgs = {
  channels?: InputMaybe<CreateAlertRuleChannelsInput>;
  cooldownMinutes?: InputMaybe<Scalars['Int']['input']>;
  direction?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  minBand?: InputMaybe<Scalars['String']['input']>;
  minScore?: InputMaybe<Scalars['Float']['input']>;
  name: Scalars['String']['input'];
  patternTypes?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  states?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  timeframe?: InputMaybe<Scalars['String']['input']>;
  watchlistId?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreateApiKeyArgs = {
  name: Scalars['String']['input'];
  scopes?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  tier?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreateCommunityPostArgs = {
  body: Scalars['String']['input'];
  signalId?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationCreateExportArgs = {
  dataset: Scalars['String']['input'];
  filters?: InputMaybe<CreateExportFiltersInput>;
  format?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCreateJournalEntryArgs = {
  entryAt: Scalars['String']['input'];
  entryPrice: Scalars['Float']['input'];
  exitAt?: InputMaybe<Scalars['String']['input']>;
  exitPrice?: InputMaybe<Scalars['Float']['input']>;
  fees?: InputMaybe<Scalars['Float']['input']>;
  notes?: InputMaybe<Scalars['String']['input']>;
  side: Scalars['String']['input'];
  signalId?: InputMaybe<Scalars['String']['input']>;
  size: Scalars['Float']['input'];
  symbol: Scalars['String']['input'];
  tags?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationCreateWatchlistArgs = {
  name: Scalars['String']['input'];
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationDeleteAlertRuleArgs = {
  id: Scalars['String']['input'];
};


export type MutationDeleteCommunityPostArgs = {
  id: Scalars['String']['input'];
};


export type MutationDeleteJournalEntryArgs = {
  id: Scalars['String']['input'];
};


export type MutationDeleteWatchlistArgs = {
  id: Scalars['String']['input'];
};


export type MutationEditCommunityPostArgs = {
  body?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['String']['input'];
  signalId?: InputMaybe<Scalars['String']['input']>;
  symbols?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
};


export type MutationMarkNotificationReadArgs = {
  id: Scalars['String']['input'];
};


export type MutationRemoveWatchlistSymbolArgs = {
  id: Scalars['String']['input'];
  symbol: Scalars['String']['input'];
};


export type MutationRenameWatchlistArgs = {
  id: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


export type MutationRevokeApiKeyArgs = {
  id: Scalars['String']['input'];
};


export type MutationUpdateAlertRuleArgs = {
  channels?: InputMaybe<CreateAlertRuleChannelsInput>;
  cooldownMinutes?: InputMaybe<Scalars['Int']['input']>;
  direction?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  id: Scalars['String']['input'];
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
  id: Scalars['String']['input'];
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
  alertId: Scalars['String']['output'];
  createdAt: Scalars['String']['output'];
  finalScore: Scalars['Float']['output'];
  /** ntf_… */
  id: Scalars['String']['output'];
  /** An alert rule of yours fired */
  kind: Scalars['String']['output'];
  patternType: Scalars['String']['output'];
  readAt?: Maybe<Scalars['String']['output']>;
  rule: NotificationRule;
  scoreBand: Scalars['String']['output'];
  signalId: Scalars['String']['output'];
  /** The signal’s state when the rule fired */
  state: Scalars['String']['output'];
  symbol: Scalars['String']['output'];
  timeframe: Scalars['String']['output'];
  title: Scalars['String']['output'];
};

export type NotificationPage = {
  __typename?: 'NotificationPage';
  items: Array<Notification>;
  pagination: PageMeta;
  /** All your unread notifications (not only this page) */
  unreadCount: Scalars['Float']['output'];
};

export type NotificationRule = {
  __typename?: 'NotificationRule';
  id: Scalars['String']['output'];
  /** As it was named when it fired */
  name: Scalars['String']['output'];
};

export type NotificationsReadAll = {
  __typename?: 'NotificationsReadAll';
  unreadCount: Scalars['Float']['output'];
  /** Notifications marked read now */
  updated: Scalars['Float']['output'];
};

export type OptionLeg = {
  __typename?: 'OptionLeg';
  breakeven: Scalars['Float']['output'];
  delta: Scalars['Float']['output'];
  /** Days from now the values at target and stop are taken at (the expected time to target, within the expiry) */
  evaluatedAtDays: Scalars['Float']['output'];
  expiryDays: Scalars['Float']['output'];
  gamma: Scalars['Float']['output'];
  price: Scalars['Float']['output'];
  probabilityBeyondBreakeven: Scalars['Float']['output'];
  reward: Scalars['Float']['output'];
  /** null when the risk is 0 */
  rewardRisk?: Maybe<Scalars['Float']['output']>;
  rho: Scalars['Float']['output'];
  risk: Scalars['Float']['output'];
  strike: Scalars['Float']['output'];
  thetaPerDay: Scalars['Float']['output'];
  type: OptionLegType;
  valueAtStop: Scalars['Float']['output'];
  valueAtTarget: Scalars['Float']['output'];
  vega: Scalars['Float']['output'];
};

export type OptionLegType =
  | 'call'
  | 'put';

export type OptionSpread = {
  __typename?: 'OptionSpread';
  breakeven: Scalars['Float']['output'];
  cost: Scalars['Float']['output'];
  /** Days from now the values at target and stop are taken at (the expected time to target, within the expiry) */
  evaluatedAtDays: Scalars['Float']['output'];
  expiryDays: Scalars['Float']['output'];
  longStrike: Scalars['Float']['output'];
  maxValue: Scalars['Float']['output'];
  reward: Scalars['Float']['output'];
  /** null when the risk is 0 */
  rewardRisk?: Maybe<Scalars['Float']['output']>;
  risk: Scalars['Float']['output'];
  shortStrike: Scalars['Float']['output'];
  type: OptionSpreadType;
  valueAtStop: Scalars['Float']['output'];
  valueAtTarget: Scalars['Float']['output'];
};

export type OptionSpreadType =
  | 'call_debit_spread'
  | 'put_debit_spread';

export type OptionsAnalyzeInputs = {
  __typename?: 'OptionsAnalyzeInputs';
  /** Calendar days: expiryDays, half and twice it */
  expiries: Array<Scalars['Float']['output']>;
  expiryDays: Scalars['Float']['output'];
  iv: Scalars['Float']['output'];
  ivRank?: Maybe<Scalars['Float']['output']>;
  perContractMultiplier: Scalars['Float']['output'];
  /** The quote the analysis used */
  price: Scalars['Float']['output'];
  /** The quote's time */
  priceAt: Scalars['String']['output'];
  r: Scalars['Float']['output'];
  stop: Scalars['Float']['output'];
  /** The stop was not given: half the target distance on the other side of the trigger */
  stopDefaulted: Scalars['Boolean']['output'];
  strikes: Array<Scalars['Float']['output']>;
  target: Scalars['Float']['output'];
  trigger: Scalars['Float']['output'];
};

export type OptionsAnalyzeResponse = {
  __typename?: 'OptionsAnalyzeResponse';
  candidates: Array<OptionLeg>;
  direction: Scalars['String']['output'];
  expectedTimeToTarget: OptionsAnalyzeResponseExpectedTimeToTarget;
  inputs: OptionsAnalyzeInputs;
  ivCrush?: Maybe<OptionsAnalyzeResponseIvCrush>;
  /** Driftless log-price touch and order probabilities of the plan over expiryDays */
  probabilities: OptionsAnalyzeResponseProbabilities;
  recommendation: Scalars['JSON']['output'];
  spreads: Array<OptionSpread>;
  /** The plan in the stock itself, per share */
  stock: OptionsAnalyzeResponseStock;
  symbol: Scalars['String']['output'];
};

export type OptionsAnalyzeResponseExpectedTimeToTarget = {
  __typename?: 'OptionsAnalyzeResponseExpectedTimeToTarget';
  days: Scalars['Float']['output'];
  method: Scalars['String']['output'];
};

/** The next report falls before an expiry considered */
export type OptionsAnalyzeResponseIvCrush = {
  __typename?: 'OptionsAnalyzeResponseIvCrush';
  affectsExpiries: Array<Scalars['Float']['output']>;
  daysAway: Scalars['Float']['output'];
  earningsDate: Scalars['String']['output'];
  warning: Scalars['String']['output'];
};

/** Driftless log-price touch and order probabilities of the plan over expiryDays */
export type OptionsAnalyzeResponseProbabilities = {
  __typename?: 'OptionsAnalyzeResponseProbabilities';
  /** Chance of reaching the target first */
  targetBeforeStop: Scalars['Float']['output'];
  /** Chance of touching the stop before the expiry */
  touchStop: Scalars['Float']['output'];
  /** Chance of touching the target before the expiry */
  touchTarget: Scalars['Float']['output'];
};

/** The plan in the stock itself, per share */
export type OptionsAnalyzeResponseStock = {
  __typename?: 'OptionsAnalyzeResponseStock';
  reward: Scalars['Float']['output'];
  rewardRisk: Scalars['Float']['output'];
  risk: Scalars['Float']['output'];
};

export type OptionsFlowResponse = {
  __typename?: 'OptionsFlowResponse';
  flow: Scalars['JSON']['output'];
  symbol: Scalars['String']['output'];
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
  hasMore: Scalars['Boolean']['output'];
  /** The effective page size */
  limit: Scalars['Float']['output'];
  /** Opaque cursor of the next page; null on the last page */
  nextCursor?: Maybe<Scalars['String']['output']>;
  offset: Scalars['Float']['output'];
  order: PageMetaOrder;
  /** Items in all pages, where cheap to count */
  total?: Maybe<Scalars['Float']['output']>;
};

export type PageMetaOrder =
  | 'asc'
  | 'desc';

export type Performance = {
  __typename?: 'Performance';
  avgDaysHeld?: Maybe<Scalars['Float']['output']>;
  /** Mean R of closed trades */
  avgR?: Maybe<Scalars['Float']['output']>;
  /** 95%, trades detected in the same Monday-based week taken as one cluster; null below 2 weeks */
  avgRInterval: PerformanceAvgRInterval;
  /** Entered signals with a final outcome */
  closed: Scalars['Float']['output'];
  expectancyR?: Maybe<Scalars['Float']['output']>;
  /** wins ÷ closed */
  hitRate?: Maybe<Scalars['Float']['output']>;
  /** 95%, trades detected in the same Monday-based week taken as one cluster; null below 2 weeks */
  hitRateInterval: PerformanceHitRateInterval;
  losses: Scalars['Float']['output'];
  /** Failed or expired before crossing the trigger */
  neverEntered: Scalars['Float']['output'];
  open: Scalars['Float']['output'];
  /** null without losses */
  profitFactor?: Maybe<Scalars['Float']['output']>;
  scratches: Scalars['Float']['output'];
  signals: Scalars['Float']['output'];
  totalR: Scalars['Float']['output'];
  wins: Scalars['Float']['output'];
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
  close: Scalars['Float']['output'];
  /** Session date (New York) */
  date: Scalars['String']['output'];
  high: Scalars['Float']['output'];
  low: Scalars['Float']['output'];
  open: Scalars['Float']['output'];
  /** Start of the bar (4h and 1h bars only) */
  ts?: Maybe<Scalars['String']['output']>;
  volume: Scalars['Float']['output'];
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
  id: Scalars['String']['input'];
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
  symbol: Scalars['String']['input'];
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
  id: Scalars['String']['input'];
};


export type QueryConfluenceArgs = {
  asOf?: InputMaybe<Scalars['String']['input']>;
  benchmark?: InputMaybe<Scalars['String']['input']>;
  lookback?: InputMaybe<Scalars['Int']['input']>;
  symbol: Scalars['String']['input'];
  timeframe?: InputMaybe<Scalars['String']['input']>;
};


export type QueryEarningsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
  symbol: Scalars['String']['input'];
};


export type QueryExportArgs = {
  id: Scalars['String']['input'];
};


export type QueryExportsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<Scalars['String']['input']>;
};


export type QueryFloatArgs = {
  symbol: Scalars['String']['input'];
};


export type QueryForecastArgs = {
  asOf?: InputMaybe<Scalars['String']['input']>;
  horizon?: InputMaybe<Scalars['Int']['input']>;
  model?: InputMaybe<Scalars['String']['input']>;
  symbol: Scalars['String']['input'];
};


export type QueryInsiderArgs = {
  symbol: Scalars['String']['input'];
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
  id: Scalars['String']['input'];
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
  month: Scalars['String']['input'];
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
  symbol: Scalars['String']['input'];
  target: Scalars['Float']['input'];
  trigger: Scalars['Float']['input'];
};


export type QueryOptionsFlowArgs = {
  symbol: Scalars['String']['input'];
};


export type QueryScorecardArgs = {
  replayId?: InputMaybe<Scalars['String']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
};


export type QueryShortInterestArgs = {
  symbol: Scalars['String']['input'];
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
  symbol: Scalars['String']['input'];
};


export type QueryUniverseScanArgs = {
  benchmark?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  minAvgVolUsd?: InputMaybe<Scalars['Float']['input']>;
  minRsRank?: InputMaybe<Scalars['Float']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
};


export type QueryWatchlistArgs = {
  id: Scalars['String']['input'];
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
  hitRate: RecordEstimate;
  meanR: RecordEstimate;
  priceHitRate: RecordEstimate;
  /** Trades labelled by prices alone */
  priced: Scalars['Float']['output'];
  sameDay: RecordFiguresSameDay;
  /** Share of the trades the lifecycle ended as scratches */
  scratchShare?: Maybe<Scalars['Float']['output']>;
  /** Closed, entered daily trades */
  trades: Scalars['Float']['output'];
  /** Entry weeks with a trade: the clusters resampled */
  weeks: Scalars['Float']['output'];
  yearMatched: RecordFiguresYearMatched;
};

export type RecordFiguresSameDay = {
  __typename?: 'RecordFiguresSameDay';
  /** Resolved same-day random entries */
  draws: Scalars['Float']['output'];
  /** Their hit rate (target1 before the stop, prices only) */
  hitRate?: Maybe<Scalars['Float']['output']>;
  lift: RecordEstimate;
  liftR: RecordEstimate;
  /** Their mean R */
  meanR?: Maybe<Scalars['Float']['output']>;
};

export type RecordFiguresYearMatched = {
  __typename?: 'RecordFiguresYearMatched';
  /** Resolved year-matched random entries */
  draws: Scalars['Float']['output'];
  /** Their hit rate (target1 before the stop, prices only) */
  hitRate?: Maybe<Scalars['Float']['output']>;
  lift: RecordEstimate;
  liftR: RecordEstimate;
  /** Their mean R */
  meanR?: Maybe<Scalars['Float']['output']>;
};

/** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced */
export type RecordSection = {
  __typename?: 'RecordSection';
  /** A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how) */
  all: RecordFigures;
  byBand: Scalars['JSON']['output'];
  byDirection: Scalars['JSON']['output'];
  byPattern: Scalars['JSON']['output'];
  byRegime: Scalars['JSON']['output'];
  byYear: Scalars['JSON']['output'];
  /** Which ledger the figures come from */
  ledger: LedgerResponseSource;
  /** Random entries drawn per trade and baseline */
  matches: Scalars['Float']['output'];
  method: Scalars['JSON']['output'];
  /** The universe the random entries were drawn from */
  universe: Scalars['String']['output'];
};

export type ReplaySummary = {
  __typename?: 'ReplaySummary';
  /** The market-data provider the replay read (synthetic, csv, yahoo) */
  dataSource: Scalars['String']['output'];
  finishedAt?: Maybe<Scalars['String']['output']>;
  id: Scalars['String']['output'];
  /** What started it: boot (first start), cli, api, test */
  origin: Scalars['String']['output'];
  /** timeframe, from, to, universe, benchmark */
  params: Scalars['JSON']['output'];
  sessionsDone: Scalars['Float']['output'];
  sessionsTotal: Scalars['Float']['output'];
  startedAt: Scalars['String']['output'];
  /** running, done or failed */
  status: Scalars['String']['output'];
  /** The universe scanned at each date, and whether the figures carry survivorship bias, in words */
  universe: ReplaySummaryUniverse;
};

/** The universe scanned at each date, and whether the figures carry survivorship bias, in words */
export type ReplaySummaryUniverse = {
  __typename?: 'ReplaySummaryUniverse';
  kind: Scalars['String']['output'];
  membersWithoutData: Scalars['Float']['output'];
  membership: Scalars['String']['output'];
  minCoverage: Scalars['Float']['output'];
  survivorshipBias: Scalars['Boolean']['output'];
  survivorshipNote: Scalars['String']['output'];
  symbols: Scalars['Float']['output'];
};

/** The classification thresholds in days to rotate, per class (fundamentals/service ROTATION_CLASSES) */
export type RotationThresholds = {
  __typename?: 'RotationThresholds';
  extreme_rotation: Scalars['String']['output'];
  high_rotation: Scalars['String']['output'];
  low_rotation: Scalars['String']['output'];
  normal_rotation: Scalars['String']['output'];
  very_high_rotation: Scalars['String']['output'];
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
  alertPolicy: AlertPolicyRecord;
  allTime: Performance;
  calibration: ScorecardResponseCalibration;
  /** Whether the signals show edge over same-day random entries, computed from the current record */
  edge: EdgeStatement;
  generatedAt: Scalars['String']['output'];
  /** verdict (rising | falling | mixed | insufficient), the computed statement, Spearman ρ, band steps with each band's weekly-clustered hit-rate interval */
  higherBandsDoBetter: HigherBandsDoBetter;
  ledgerHead: ScorecardResponseLedgerHead;
  method: Scalars['JSON']['output'];
  /** The replay shown (source=replay), else null */
  replay?: Maybe<ReplaySummary>;
  /** Which ledger this shows */
  source: LedgerResponseSource;
  /** Whether the figures may flatter because companies that later failed or left the index are missing from the universe */
  survivorshipBias: Scalars['Boolean']['output'];
  /** What survivorship bias means for these figures, in words */
  survivorshipNote: Scalars['String']['output'];
  /** 30d, 90d, 365d by detection date */
  trailing: Scalars['JSON']['output'];
};

export type ScorecardResponseCalibration = {
  __typename?: 'ScorecardResponseCalibration';
  byBand: Scalars['JSON']['output'];
  byDirection: Scalars['JSON']['output'];
  byPattern: Scalars['JSON']['output'];
  byRegime: Scalars['JSON']['output'];
  byTimeframe: Scalars['JSON']['output'];
  /** Is confidence a probability of a win? Brier score against the base rate, and the reliability table */
  confidence: ScorecardResponseCalibrationConfidence;
  /** The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced */
  record: RecordSection;
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
  reliability: Array<ScorecardResponseCalibrationConfidenceReliability>;
  /** 1 − brier ÷ referenceBrier; above 0 the confidence tells more than the base rate */
  skill?: Maybe<Scalars['Float']['output']>;
  /** Closed trades with a confidence */
  trades: Scalars['Float']['output'];
};

export type ScorecardResponseCalibrationConfidenceReliability = {
  __typename?: 'ScorecardResponseCalibrationConfidenceReliability';
  from: Scalars['Float']['output'];
  lower: Scalars['Float']['output'];
  observed: Scalars['Float']['output'];
  predicted: Scalars['Float']['output'];
  to: Scalars['Float']['output'];
  trades: Scalars['Float']['output'];
  upper: Scalars['Float']['output'];
};

export type ScorecardResponseLedgerHead = {
  __typename?: 'ScorecardResponseLedgerHead';
  hash: Scalars['String']['output'];
  seq: Scalars['Float']['output'];
};

export type SectorRotationResponse = {
  __typename?: 'SectorRotationResponse';
  asOf: Scalars['String']['output'];
  benchmark: Scalars['String']['output'];
  count: Scalars['Float']['output'];
  method: Scalars['String']['output'];
  /** Ranked by RS-Ratio, strongest first */
  sectors: Array<SectorRotationResponseSectors>;
};

export type SectorRotationResponseSectors = {
  __typename?: 'SectorRotationResponseSectors';
  performance: Scalars['JSON']['output'];
  quadrant: SectorRotationResponseSectorsQuadrant;
  /** RRG-style RS-Momentum (100 = steady relative trend) */
  rsMomentum: Scalars['Float']['output'];
  /** RRG-style RS-Ratio (100 = in line with the benchmark) */
  rsRatio: Scalars['Float']['output'];
  /** GICS sector */
  sector: Scalars['String']['output'];
  /** SPDR sector fund */
  symbol: Scalars['String']['output'];
  /** Weekly points (5 bars apart), oldest first, ending at the latest */
  tail: Array<SectorRotationResponseSectorsTail>;
};

export type SectorRotationResponseSectorsQuadrant =
  | 'improving'
  | 'lagging'
  | 'leading'
  | 'weakening';

export type SectorRotationResponseSectorsTail = {
  __typename?: 'SectorRotationResponseSectorsTail';
  date: Scalars['String']['output'];
  quadrant: SectorRotationResponseSectorsQuadrant;
  rsMomentum: Scalars['Float']['output'];
  rsRatio: Scalars['Float']['output'];
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
  settlementDate: Scalars['String']['output'];
  sharesShort: Scalars['Float']['output'];
  source: Scalars['String']['output'];
};

export type ShortInterestResponse = {
  __typename?: 'ShortInterestResponse';
  snapshot?: Maybe<ShortInterestReport>;
  source: Scalars['String']['output'];
  squeeze?: Maybe<SqueezeScore>;
  squeezeRisk?: Maybe<ShortInterestResponseSqueezeRisk>;
  symbol: Scalars['String']['output'];
};

export type ShortInterestResponseSqueezeRisk =
  | 'elevated'
  | 'high'
  | 'low'
  | 'moderate';

export type Signal = {
  __typename?: 'Signal';
  /** 50-bar average close × volume, USD */
  avgDollarVolume?: Maybe<Scalars['Float']['output']>;
  breakoutState: SignalBreakoutState;
  /** Breakout bar volume ÷ its 50-bar average, once triggered */
  breakoutVolumeRatio?: Maybe<Scalars['Float']['output']>;
  /** Each component in [0, 1], null without data (kernels/scoring weighs them) */
  components: ScoreComponents;
  /** The calibrated probability that the ledger records a win (target1 before the stop while the lifecycle holds), from the fitted model; judged in /api/scorecard `calibration.confidence` (Brier score and reliability) */
  confidence: Scalars['Float']['output'];
  detectedAt: Scalars['String']['output'];
  direction: SignalDirection;
  /** Distance of that close beyond the trigger in the setup’s direction, % */
  distancePct: Scalars['Float']['output'];
  /** GET /api/earnings of the signal's symbol, first page (batched per request) */
  earnings?: Maybe<EarningsResponse>;
  /** How reachable target1 is, as the record shows it: the fitted score (kernels/score-table, fitted on the replayed history 2005–2016) ranks setups by their expected R and chance of a recorded win. It is not edge: out of sample no band beats random entries with the same geometry on the same day (/api/scorecard `edge` says what the current record shows) */
  finalScore: Scalars['Float']['output'];
  geometry: SignalGeometry;
  /** SYMBOL-pattern-detectedAt */
  id: Scalars['String']['output'];
  patternFamily: SignalPatternFamily;
  patternType: SignalPatternType;
  /** Close at the scan */
  price: Scalars['Float']['output'];
  reasons: Array<Scalars['String']['output']>;
  /** IBD-style RS rank 1–99 in the universe */
  rsRank?: Maybe<Scalars['Float']['output']>;
  /** elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore */
  scoreBand: SignalScoreBand;
  /** GET /api/snapshot of the signal's symbol (batched per request) */
  snapshot?: Maybe<SnapshotResponse>;
  stopLoss?: Maybe<Scalars['Float']['output']>;
  symbol: Scalars['String']['output'];
  target1: Scalars['Float']['output'];
  timeframe: Scalars['String']['output'];
  trendRegime: SignalTrendRegime;
  triggerPrice: Scalars['Float']['output'];
};

export type SignalBreakoutState =
  | 'confirmed'
  | 'expired'
  | 'failed'
  | 'forming'
  | 'stopped'
  | 'target_hit'
  | 'triggered';

export type SignalConnection = {
  __typename?: 'SignalConnection';
  edges: Array<SignalEdge>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type SignalDirection =
  | 'long'
  | 'short';

export type SignalEdge = {
  __typename?: 'SignalEdge';
  cursor: Scalars['String']['output'];
  node: Signal;
};

export type SignalGeometry = {
  __typename?: 'SignalGeometry';
  /** Successive contractions (VCP pullbacks, triangle touches); 0 where it means nothing */
  contractions: Scalars['Float']['output'];
  /** (highest high − lowest low) ÷ highest high, % */
  depthPct: Scalars['Float']['output'];
  /** Time of the pattern's last bar */
  end: Scalars['String']['output'];
  lengthBars: Scalars['Float']['output'];
  /** Time of the pattern's first bar */
  start: Scalars['String']['output'];
};

export type SignalPatternFamily =
  | 'base'
  | 'continuation'
  | 'momentum'
  | 'range';

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

export type SignalTrendRegime =
  | 'downtrend'
  | 'sideways'
  | 'uptrend';

export type SnapshotResponse = {
  __typename?: 'SnapshotResponse';
  /** price − previousClose */
  change: Scalars['Float']['output'];
  /** 100 × change / previousClose */
  changePercent: Scalars['Float']['output'];
  dayHigh: Scalars['Float']['output'];
  dayLow: Scalars['Float']['output'];
  marketOpen: Scalars['Boolean']['output'];
  name?: Maybe<Scalars['String']['output']>;
  open: Scalars['Float']['output'];
  previousClose: Scalars['Float']['output'];
  price: Scalars['Float']['output'];
  sector?: Maybe<Scalars['String']['output']>;
  source: Scalars['String']['output'];
  symbol: Scalars['String']['output'];
  ts: Scalars['String']['output'];
  /** Session volume so far */
  volume: Scalars['Float']['output'];
};

export type SqueezeComponent = {
  __typename?: 'SqueezeComponent';
  /** The weight renormalised over the known components (0 when unknown) */
  effectiveWeight: Scalars['Float']['output'];
  key: SqueezeComponentKey;
  /** The value mapped onto [0, 1]; null when unknown */
  score?: Maybe<Scalars['Float']['output']>;
  value?: Maybe<Scalars['Float']['output']>;
  weight: Scalars['Float']['output'];
};

export type SqueezeComponentKey =
  | 'daysToCover'
  | 'momentum'
  | 'shortPercentFloat'
  | 'utilisation';

export type SqueezeScore = {
  __typename?: 'SqueezeScore';
  bands: Scalars['String']['output'];
  components: Array<SqueezeComponent>;
  freeFloat?: Maybe<Scalars['Float']['output']>;
  momentumAsOf?: Maybe<Scalars['String']['output']>;
  note: Scalars['String']['output'];
  /** 0–100, null when no component is known */
  score?: Maybe<Scalars['Float']['output']>;
};

export type StateChangeEvent = {
  __typename?: 'StateChangeEvent';
  /** Time of that bar */
  at: Scalars['String']['output'];
  /** null for a signal first seen past forming */
  from?: Maybe<SignalBreakoutState>;
  /** Close of the bar that moved it */
  price: Scalars['Float']['output'];
  signalId: Scalars['String']['output'];
  symbol: Scalars['String']['output'];
  to: SignalBreakoutState;
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
  failed: Array<Scalars['String']['output']>;
  met: Scalars['Int']['output'];
  /** All eight criteria met */
  passed: Scalars['Boolean']['output'];
};

export type UniverseScanResponse = {
  __typename?: 'UniverseScanResponse';
  asOf: Scalars['String']['output'];
  benchmark: Scalars['String']['output'];
  count: Scalars['Float']['output'];
  filters: UniverseScanResponseFilters;
  generatedAt: Scalars['String']['output'];
  method: Scalars['String']['output'];
  ok: Scalars['Boolean']['output'];
  ranked: Array<UniverseScanResponseRanked>;
  /** The market regime of the run (kernels/regime), null when it could not be read */
  regime?: Maybe<MarketRegime>;
  regimeMultiplier: Scalars['Float']['output'];
  source: Scalars['String']['output'];
  /** Symbols in the chosen universes before filters */
  universeSize: Scalars['Float']['output'];
};

export type UniverseScanResponseFilters = {
  __typename?: 'UniverseScanResponseFilters';
  limit: Scalars['Float']['output'];
  minAvgVolUsd: Scalars['Float']['output'];
  minRsRank: Scalars['Float']['output'];
};

export type UniverseScanResponseRanked = {
  __typename?: 'UniverseScanResponseRanked';
  /** 50-day average of close × volume, USD */
  avgDollarVolume: Scalars['Float']['output'];
  /** The highest-scoring live setup, or null */
  bestSetup?: Maybe<BreakoutSignal>;
  indices: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  price: Scalars['Float']['output'];
  rsRank?: Maybe<Scalars['Float']['output']>;
  /** 0.4·ROC63 + 0.2·(ROC126 + ROC189 + ROC252) */
  rsScore?: Maybe<Scalars['Float']['output']>;
  sector?: Maybe<Scalars['String']['output']>;
  symbol: Scalars['String']['output'];
  trendRegime: Scalars['String']['output'];
  trendTemplate: TrendTemplate;
};

export type Watchlist = {
  __typename?: 'Watchlist';
  /** When it was created */
  createdAt: Scalars['String']['output'];
  /** wl_… */
  id: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** In the order they were added */
  symbols: Array<WatchlistSymbols>;
  /** When it last changed */
  updatedAt: Scalars['String']['output'];
};

export type WatchlistPage = {
  __typename?: 'WatchlistPage';
  items: Array<Watchlist>;
  pagination: PageMeta;
};

export type WatchlistSymbols = {
  __typename?: 'WatchlistSymbols';
  /** The symbol’s newest signal of any timeframe and state; null when none was ever surfaced */
  latestSignal?: Maybe<LatestSignal>;
  symbol: Scalars['String']['output'];
};
