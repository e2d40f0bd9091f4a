/** @module modules/transparency/model — schemas of the Transparency tag. */
import { t, type Static } from 'elysia';
import { PAGE_OFFSET_MAX } from '../../pagination';
import { DateParam, MonthParam, oneOf, PerformanceSchema } from '../shared/params';
import { bulkDocs, FormatParam } from '../shared/representations';
import { AlertPolicySchema, EdgeSchema, MonthlyRecordSchema, RecordSectionSchema } from './record-model';

/** Which ledger a read shows (additive; default `live`). */
export const LEDGER_SOURCES = ['live', 'replay'] as const;
export type LedgerSource = (typeof LEDGER_SOURCES)[number];

/** `source` and `replayId`, on every Transparency read. */
const SourceParams = {
  source: oneOf(
    'source',
    LEDGER_SOURCES,
    'Which ledger: live (default) — the signals surfaced as they happened; replay — a point-in-time replay of history, kept in a chain of its own',
    'live',
  ),
  replayId: t.Optional(
    t.String({ pattern: '^rpl_[0-9a-z]{20}$', description: 'With source=replay: this replay (default the newest finished one)', error: "Query parameter 'replayId' must be a replay id (rpl_ and 20 characters)" }),
  ),
};

/** What a replay read says about the replay it shows. */
export const ReplaySummary = t.Object(
  {
    id: t.String(),
    status: t.String({ description: 'running, done or failed' }),
    dataSource: t.String({ description: 'The market-data provider the replay read (synthetic, csv, yahoo)' }),
    origin: t.String({ description: 'What started it: boot (first start), cli, api, test' }),
    params: t.Record(t.String(), t.Any(), { description: 'timeframe, from, to, universe, benchmark' }),
    universe: t.Object(
      {
        kind: t.String(),
        membership: t.String(),
        symbols: t.Integer(),
        membersWithoutData: t.Integer(),
        minCoverage: t.Number(),
        survivorshipBias: t.Boolean(),
        survivorshipNote: t.String(),
      },
      { description: 'The universe scanned at each date, and whether the figures carry survivorship bias, in words' },
    ),
    sessionsDone: t.Integer(),
    sessionsTotal: t.Integer(),
    startedAt: t.String({ format: 'date-time' }),
    finishedAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  },
  { title: 'ReplaySummary' },
);
export type ReplaySummary = Static<typeof ReplaySummary>;

/** What every Transparency read adds: which ledger it shows, and the replay when it is one. */
const SourceFields = {
  source: t.Union([t.Literal('live'), t.Literal('replay')], { description: 'Which ledger this shows' }),
  replay: t.Union([ReplaySummary, t.Null()], { description: 'The replay shown (source=replay), else null' }),
};

/** The most records one ledger page returns (the spec leaves the cap open). */
export const LEDGER_LIMIT_MAX = 1000;
export const LEDGER_LIMIT_DEFAULT = 500;

export const LedgerQuery = t.Object({
  since: t.Optional(DateParam('since', 'Signals detected on or after this date')),
  until: t.Optional(DateParam('until', 'Signals detected on or before this date')),
  patternType: t.Optional(t.String({ pattern: '^[a-z0-9_]{1,40}$', description: 'Only this pattern type', error: "Query parameter 'patternType' must be a pattern type such as flat_base" })),
  scoreBand: t.Optional(oneOf('scoreBand', ['elite', 'strong', 'watchlist', 'ignore'] as const, 'Only this score band')),
  limit: t.Integer({
    minimum: 1,
    maximum: LEDGER_LIMIT_MAX,
    default: LEDGER_LIMIT_DEFAULT,
    description: `Records per page; default ${LEDGER_LIMIT_DEFAULT}, at most ${LEDGER_LIMIT_MAX}`,
    error: `Query parameter 'limit' must be an integer from 1 to ${LEDGER_LIMIT_MAX}`,
  }),
  offset: t.Integer({ minimum: 0, maximum: PAGE_OFFSET_MAX, default: 0, description: 'Records to skip; default 0', error: `Query parameter 'offset' must be a decimal integer from 0 to ${PAGE_OFFSET_MAX}` }),
  ...SourceParams,
});

/** The route's query: the ledger's (GraphQL's arguments too) and the representation. */
export const LedgerRouteQuery = t.Composite([LedgerQuery, t.Object({ format: t.Optional(FormatParam('record')) })]);
export type LedgerRouteQuery = Static<typeof LedgerRouteQuery>;

const LedgerRecord = t.Object(
  {
    seq: t.Integer(),
    hash: t.String(),
    prevHash: t.String(),
    recordedAt: t.String({ format: 'date-time' }),
    signal: t.Record(t.String(), t.Any(), { description: 'What was known when the signal was first surfaced (the hashed record)' }),
    state: t.String(),
    events: t.Array(t.Object({ seq: t.Integer(), from: t.Union([t.String(), t.Null()]), to: t.String(), price: t.Number(), at: t.String(), hash: t.String() })),
    outcome: t.Record(t.String(), t.Any(), { description: 'open, or win | loss | scratch with R-multiple, excursions, exit and holding time' }),
    outcomeRecord: t.Union([t.Object({ seq: t.Integer(), hash: t.String() }), t.Null()]),
  },
  { title: 'LedgerRecord' },
);

export const LedgerResponse = t.Object(
  {
    count: t.Integer({ description: 'Signal records matching the filters (all pages)' }),
    filters: t.Object({
      since: t.Union([t.String(), t.Null()]),
      until: t.Union([t.String(), t.Null()]),
      patternType: t.Union([t.String(), t.Null()]),
      scoreBand: t.Union([t.String(), t.Null()]),
      limit: t.Integer(),
      offset: t.Integer(),
      maxLimit: t.Integer(),
    }),
    records: t.Array(LedgerRecord),
    head: t.Object({ seq: t.Integer(), hash: t.String() }),
    ...SourceFields,
  },
  { title: 'LedgerResponse' },
);

const ChainReport = t.Object(
  {
    ok: t.Boolean(),
    count: t.Integer(),
    head: t.Object({ seq: t.Integer(), hash: t.String() }),
    firstBadSeq: t.Union([t.Integer(), t.Null()]),
    reason: t.Union([t.String(), t.Null()]),
    checkpoints: t.Object({ count: t.Integer(), verified: t.Integer(), firstBadSeq: t.Union([t.Integer(), t.Null()]) }),
    scope: t.Union([t.Literal('full'), t.Literal('incremental')], { description: 'full: every record recomputed; incremental: the records after fromSeq, chained to the head verified before' }),
    fromSeq: t.Integer({ description: 'The records after this seq were recomputed by this pass (0: all)' }),
    verifiedAt: t.String({ format: 'date-time', description: 'When the pass ran; the report is reused while the ledger head is unchanged' }),
    durationMs: t.Integer(),
  },
  { title: 'LedgerChainReport' },
);

export const VerifyResponse = t.Object(
  {
    ok: t.Boolean({ description: 'Both chains hold' }),
    count: t.Integer({ description: 'Live chain' }),
    head: t.Object({ seq: t.Integer(), hash: t.String() }, { description: 'Live chain' }),
    firstBadSeq: t.Union([t.Integer(), t.Null()], { description: 'Live chain' }),
    reason: t.Union([t.String(), t.Null()], { description: 'Live chain, else the replay chain’s, prefixed "replay chain:"' }),
    checkpoints: t.Object({ count: t.Integer(), verified: t.Integer(), firstBadSeq: t.Union([t.Integer(), t.Null()]) }, { description: 'Live chain' }),
    scope: t.Union([t.Literal('full'), t.Literal('incremental')], { description: 'Live chain. full: every record recomputed; incremental: the records after fromSeq, chained to the head verified before' }),
    fromSeq: t.Integer({ description: 'Live chain: the records after this seq were recomputed by this pass (0: all)' }),
    verifiedAt: t.String({ format: 'date-time', description: 'Live chain: when the pass ran; the report is reused while the ledger head is unchanged' }),
    durationMs: t.Integer({ description: 'Both chains' }),
    chains: t.Object({ live: ChainReport, replay: ChainReport }, { description: 'Each chain on its own: the live ledger and the replay ledger' }),
    method: t.String(),
  },
  { title: 'LedgerVerifyResponse' },
);

export const CheckpointsResponse = t.Object(
  { count: t.Integer(), checkpoints: t.Array(t.Object({ seq: t.Integer(), headHash: t.String(), count: t.Integer(), createdAt: t.String({ format: 'date-time' }) })) },
  { title: 'LedgerCheckpointsResponse' },
);

export type LedgerQuery = Static<typeof LedgerQuery>;
export type LedgerResponse = Static<typeof LedgerResponse>;
export type VerifyResponse = Static<typeof VerifyResponse>;
export type CheckpointsResponse = Static<typeof CheckpointsResponse>;

export const MonthlyQuery = t.Object({
  month: MonthParam('month', 'The month (by signal detection time, UTC)'),
  ...SourceParams,
});

export const ScorecardQuery = t.Object(SourceParams);
export type ScorecardQuery = Static<typeof ScorecardQuery>;
export type MonthlyQuery = Static<typeof MonthlyQuery>;

const Groups = t.Record(t.String(), PerformanceSchema);

/** One signal of the month as the ledger's trade reads it (ledger/performance Trade). */
const MonthlySignal = t.Object(
  {
    id: t.String(),
    symbol: t.String(),
    patternType: t.String(),
    scoreBand: t.String(),
    timeframe: t.String(),
    direction: t.String(),
    detectedAt: t.String({ format: 'date-time' }),
    outcome: t.Union(['open', 'win', 'loss', 'scratch'].map((v) => t.Literal(v))),
    entered: t.Boolean({ description: 'The price crossed the trigger' }),
    rMultiple: t.Union([t.Number(), t.Null()], { description: 'Null while open or never entered' }),
  },
  { title: 'MonthlySignal' },
);

/** A band's hit rate with its interval (kernels/stats/proportion; the scorecard's weekly-clustered bounds where it has them). */
const HitRateInterval = t.Object(
  { successes: t.Number(), trials: t.Number(), confidence: t.Number(), estimate: t.Number(), lower: t.Number(), upper: t.Number() },
  { title: 'HitRateInterval' },
);

/** Whether higher score bands do better (kernels/stats/monotonicity). */
const HigherBandsDoBetter = t.Object(
  {
    verdict: t.Union(['rising', 'falling', 'mixed', 'insufficient'].map((v) => t.Literal(v))),
    statement: t.String({ description: 'The computed statement, in words' }),
    meanRRho: t.Union([t.Number(), t.Null()], { description: 'Spearman ρ of band order against mean R; null under two bands or when all are equal' }),
    hitRateRho: t.Union([t.Number(), t.Null()], { description: 'Spearman ρ of band order against hit rate' }),
    minTrades: t.Integer({ description: 'Bands with fewer closed trades are left out' }),
    bandsUsed: t.Array(t.String()),
    bandsExcluded: t.Array(t.Object({ band: t.String(), trades: t.Integer() })),
    steps: t.Array(
      t.Object(
        { lower: t.String(), higher: t.String(), meanRDelta: t.Number(), hitRateDelta: t.Number(), lowerHitRate: HitRateInterval, higherHitRate: HitRateInterval, hitRateIntervalsOverlap: t.Boolean() },
        { title: 'BandStep', description: 'Adjacent bands used, low → high' },
      ),
    ),
  },
  { title: 'HigherBandsDoBetter', description: "verdict (rising | falling | mixed | insufficient), the computed statement, Spearman ρ, band steps with each band's weekly-clustered hit-rate interval" },
);

export const MonthlyResponse = t.Object(
  {
    month: t.String(),
    from: t.String({ format: 'date-time' }),
    to: t.String({ format: 'date-time' }),
    generatedAt: t.String({ format: 'date-time' }),
    ledgerHead: t.Object({ seq: t.Integer(), hash: t.String() }),
    summary: PerformanceSchema,
    byPattern: Groups,
    byBand: Groups,
    byTimeframe: Groups,
    byDirection: Groups,
    record: MonthlyRecordSchema,
    signals: t.Array(MonthlySignal),
    method: t.Record(t.String(), t.String()),
    ...SourceFields,
  },
  { title: 'MonthlyResponse', additionalProperties: true },
);

export const ScorecardResponse = t.Object(
  {
    generatedAt: t.String({ format: 'date-time' }),
    ledgerHead: t.Object({ seq: t.Integer(), hash: t.String() }),
    allTime: PerformanceSchema,
    trailing: t.Record(t.String(), PerformanceSchema, { description: '30d, 90d, 365d by detection date' }),
    calibration: t.Object({
      byBand: Groups,
      byPattern: Groups,
      byRegime: Groups,
      byTimeframe: Groups,
      byDirection: Groups,
      confidence: t.Object(
        {
          trades: t.Integer({ description: 'Closed trades with a confidence' }),
          brier: t.Union([t.Number(), t.Null()], { description: 'Mean (confidence − win)²' }),
          baseRate: t.Union([t.Number(), t.Null()], { description: 'The hit rate of those trades' }),
          referenceBrier: t.Union([t.Number(), t.Null()], { description: 'Brier score of predicting the base rate for every trade' }),
          skill: t.Union([t.Number(), t.Null()], { description: '1 − brier ÷ referenceBrier; above 0 the confidence tells more than the base rate' }),
          reliability: t.Array(
            t.Object({ from: t.Number(), to: t.Number(), trades: t.Integer(), predicted: t.Number(), observed: t.Number(), lower: t.Number(), upper: t.Number() }),
            { description: 'Predicted vs observed by decile of confidence; observed with its Wilson 95% interval' },
          ),
        },
        { description: 'Is confidence a probability of a win? Brier score against the base rate, and the reliability table' },
      ),
      record: RecordSectionSchema,
    }),
    edge: EdgeSchema,
    alertPolicy: AlertPolicySchema,
    higherBandsDoBetter: HigherBandsDoBetter,
    method: t.Record(t.String(), t.String()),
    ...SourceFields,
    survivorshipBias: t.Boolean({ description: 'Whether the figures may flatter because companies that later failed or left the index are missing from the universe' }),
    survivorshipNote: t.String({ description: 'What survivorship bias means for these figures, in words' }),
  },
  { title: 'ScorecardResponse', additionalProperties: true },
);

/** How the verifier checks the chain, in words (served with every verification). */
export const VERIFY_METHOD =
  'Each record is canonical JSON (RFC 8785 key order); hash = SHA-256(prev_hash ‖ body) in hex, the first prev_hash is 64 zeros; seq runs 1, 2, 3… without gaps; every checkpoint (seq, head hash) must match the recomputed chain. The server goes on from the verification checkpoint stored with each chain (the last head a pass found whole): it checks that the record at that head and the published checkpoints up to it are unchanged and recomputes the records after it (scope incremental, fromSeq); a chain never verified is recomputed from its first record (scope full). It reuses the report while the head is unchanged. A record changed before the stored checkpoint is found only by a full pass: `breakline verify-ledger` always recomputes everything (and stores the head it found whole).';

/** OpenAPI text of the Transparency routes. */
export const TRANSPARENCY_DOCS = {
  ledger: {
    tags: ['Transparency'],
    summary: 'The signal ledger',
    description:
      'Every signal ever surfaced, in chain order, as it was recorded when first surfaced, with its state changes and outcome, each with its seq and hash. Filters: since/until (detection date), patternType, scoreBand; limit default 500, at most 1000; offset. Additive: source=replay shows a point-in-time replay of history (its own chain; replayId picks one, default the newest finished), 404 when none exists; `source` and `replay` say which ledger the page shows. Additive: a `Link` header names the next (offset + limit while records remain), prev and first pages; CSV (the columns of /api/transparency/ledger.csv, for this page) or NDJSON (one record per line) by Accept or format=, streamed.',
    'x-responses': bulkDocs({
      json: 'A page of the ledger (LedgerResponse)',
      csv: 'A header row (the columns of /api/transparency/ledger.csv), then one row per record of the page, CRLF line ends',
      ndjson: 'One record (as in LedgerResponse.records) per line (LF)',
      // Not an envelope (the spec's own limit/offset), so its Link is declared here.
      link: true,
    }),
  },
  ledgerCsv: {
    tags: ['Transparency'],
    summary: 'The whole ledger as CSV',
    description: 'All signal records with their current state and outcome, one row each (RFC 4180), streamed. Public and cacheable for a minute. Additive.',
    responses: {
      200: {
        description: 'The ledger as CSV: a header row, then one row per signal record in chain order (CRLF line ends), as of the head named by the ETag',
        headers: { ETag: { description: 'The ledger head hash, quoted', schema: { type: 'string' as const } } },
        content: { 'text/csv': { schema: { type: 'string' as const } } },
      },
      304: { description: 'Not modified: If-None-Match names the current head' },
    },
  },
  monthly: {
    tags: ['Transparency'],
    summary: 'Monthly rollup',
    description:
      "The signals detected in a month (UTC) and their outcomes from the ledger: counts, hit rate and average R with weekly-clustered 95% intervals, total R, expectancy and profit factor, overall and by pattern, score band, timeframe and direction, plus every signal's outcome; `record`: the month's closed daily trades beside same-day and year-matched random entries with weekly cluster-bootstrap intervals (as the scorecard's), with the month's alert-policy record and edge statement. 400 for a missing or invalid month. Additive: source=live|replay (and replayId) as on the ledger.",
  },
  scorecard: {
    tags: ['Transparency'],
    summary: 'Scorecard',
    description:
      'All-time and trailing 30/90/365-day track record from the ledger; calibration by score band (hit rate and average R with weekly-clustered 95% intervals, counts), by pattern, regime and timeframe; and whether higher bands really do better, stated from the computed numbers (Spearman ρ across bands, interval overlap per step). `calibration.record`: the closed daily trades beside same-day and year-matched random entries with the same geometry (lift of the hit rate and of R), by band, pattern, direction, year and market regime, every interval a weekly cluster bootstrap; `edge`: one sentence saying whether any band beats same-day random entries; `alertPolicy`: each block reason with the record of the signals it blocked beside those it let through. `finalScore` ranks how reachable target1 is, and `confidence` is the calibrated probability of a recorded win: neither is edge unless `edge` says so. Additive: source=live (default) | replay (and replayId) chooses the ledger (every section says which); `survivorshipBias` and `survivorshipNote` say whether the universe behind the figures leaves out companies that later failed or left the index.',
  },
  verify: {
    tags: ['Transparency'],
    summary: 'Verify the ledger',
    description: 'Recomputes both hash chains (the live ledger and the replay ledger) and their checkpoints; names the first record that does not hold. `ok` only when both hold; the top-level figures are the live chain’s, `chains` has each. Additive.',
  },
  checkpoints: {
    tags: ['Transparency'],
    summary: 'Ledger checkpoints',
    description: 'Published (seq, head hash, count, time) checkpoints: keep a copy; every later ledger must start with them. Additive.',
  },
};
