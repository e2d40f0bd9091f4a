/**
 * @module modules/transparency/record-model
 * The schemas of the record section (jobs/record) as the scorecard and the
 * monthly rollup serve it: a group's figures with both matched baselines and
 * weekly cluster-bootstrap intervals, the alert policy's record, and the
 * `edge` statement. Their descriptions are the OpenAPI document's.
 */
import { t } from 'elysia';

const Ledger = t.Union([t.Literal('live'), t.Literal('replay')], { description: 'Which ledger the figures come from' });

const Num = (description?: string) => t.Union([t.Number(), t.Null()], description ? { description } : {});

export const EstimateSchema = t.Object(
  { value: Num(), lower: Num('95% weekly cluster-bootstrap interval'), upper: Num() },
  { title: 'RecordEstimate' },
);

const BaselineSchema = (which: string) =>
  t.Object({
    draws: t.Integer({ description: `Resolved ${which} random entries` }),
    hitRate: Num('Their hit rate (target1 before the stop, prices only)'),
    meanR: Num('Their mean R'),
    lift: EstimateSchema,
    liftR: EstimateSchema,
  });

export const RecordFiguresSchema = t.Object(
  {
    trades: t.Integer({ description: 'Closed, entered daily trades' }),
    weeks: t.Integer({ description: 'Entry weeks with a trade: the clusters resampled' }),
    hitRate: EstimateSchema,
    meanR: EstimateSchema,
    scratchShare: Num('Share of the trades the lifecycle ended as scratches'),
    priced: t.Integer({ description: 'Trades labelled by prices alone' }),
    priceHitRate: EstimateSchema,
    sameDay: BaselineSchema('same-day'),
    yearMatched: BaselineSchema('year-matched'),
  },
  {
    title: 'RecordFigures',
    description:
      "A group's record: the ledger's hit rate and mean R, the trades' price-label hit rate, and the lift over same-day and year-matched random entries with the trade's geometry; every interval a 95% weekly cluster bootstrap (method says how)",
  },
);

const Groups = t.Record(t.String(), RecordFiguresSchema);

const recordFields = {
  ledger: Ledger,
  universe: t.String({ description: 'The universe the random entries were drawn from' }),
  matches: t.Integer({ description: 'Random entries drawn per trade and baseline' }),
  method: t.Record(t.String(), t.String()),
  all: RecordFiguresSchema,
  byBand: Groups,
  byPattern: Groups,
  byDirection: Groups,
  byYear: Groups,
  byRegime: Groups,
};
const RECORD_DESCRIPTION = "The ledger's closed daily trades beside both matched random baselines, by band, pattern, direction, year of entry and market regime when surfaced";

export const RecordSectionSchema = t.Object(recordFields, { title: 'RecordSection', description: RECORD_DESCRIPTION });

const edgeFields = {
  verdict: t.Union([t.Literal('edge'), t.Literal('none'), t.Literal('insufficient')], { description: 'edge: some score band beats same-day random entries (its lift interval lies above 0); none: no band does; insufficient: too few trades' }),
  statement: t.String({ description: 'What the current record shows, in one sentence, e.g. "no band beats same-day random entries: the best, elite, lift −0.3 pp [−1.2, +0.6]; …"' }),
  basis: t.String(),
};
const EDGE_DESCRIPTION = 'Whether the signals show edge over same-day random entries, computed from the current record';

export const EdgeSchema = t.Object({ ledger: Ledger, ...edgeFields }, { title: 'EdgeStatement', description: EDGE_DESCRIPTION });

const ReasonSchema = t.Object({
  kind: t.Union([t.Literal('edge rule'), t.Literal('risk rule')], { description: 'edge rule: the record shows the blocked signals do worse; risk rule: it limits exposure, not a filter for better trades (docs/alert-policy.md)' }),
  note: t.String(),
  blocked: RecordFiguresSchema,
  meanRDifference: EstimateSchema,
  liftDifference: EstimateSchema,
});

const alertPolicyFields = {
  eligible: t.Integer({ description: 'Closed daily trades whose signal was alert-eligible when surfaced' }),
  withoutVerdict: t.Integer({ description: 'Closed daily trades whose record carries no alert verdict (written before it was kept)' }),
  letThrough: RecordFiguresSchema,
  byReason: t.Record(t.String(), ReasonSchema, { description: 'Per block reason: the signals it blocked, and let through − blocked mean R and same-day lift' }),
};
const ALERT_DESCRIPTION = 'Each block reason of the alert policy with the record of the signals it blocked beside those it let through';

export const AlertPolicySchema = t.Object({ ledger: Ledger, ...alertPolicyFields }, { title: 'AlertPolicyRecord', description: ALERT_DESCRIPTION });

/** The monthly rollup's record: the section with the month's alert-policy record and edge statement inside it. */
export const MonthlyRecordSchema = t.Object(
  {
    ...recordFields,
    alertPolicy: t.Object(alertPolicyFields, { title: 'MonthlyAlertPolicyRecord', description: ALERT_DESCRIPTION }),
    edge: t.Object(edgeFields, { title: 'MonthlyEdgeStatement', description: EDGE_DESCRIPTION }),
  },
  { title: 'MonthlyRecordSection', description: `${RECORD_DESCRIPTION}, for the signals detected in the month` },
);
