/**
 * @module db/repositories/alert-rules
 * A user's alert rules, typed on the way out (closed unions checked). Every
 * owner-facing method is scoped by the owner's id; `enabledFor` reads every
 * user's enabled rules of a timeframe for the scan job. Creating a rule takes
 * the user's advisory lock, so the tier's cap holds under concurrency.
 */
import { Type } from '@sinclair/typebox';
import { and, count, eq } from 'drizzle-orm';
import { storedAs } from '../../domain/check';
import { BREAKOUT_STATES, literalUnion, PATTERN_TYPES, SCORE_BANDS, TIMEFRAMES, type BreakoutState, type PatternType, type ScoreBand, type Timeframe } from '../../domain/signal';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { alertRules, type AlertRuleRow } from '../schema';
import { beyondCursor, pageOffset, pageOrder } from './keyset';
import { lockUser } from './watchlists';

export const RULE_DIRECTIONS = ['long', 'short', 'any'] as const;
export type RuleDirection = (typeof RULE_DIRECTIONS)[number];

export interface StoredAlertRule extends Omit<AlertRuleRow, 'patternTypes' | 'minBand' | 'timeframe' | 'direction' | 'states'> {
  patternTypes: PatternType[] | null;
  minBand: ScoreBand | null;
  timeframe: Timeframe;
  direction: RuleDirection;
  states: BreakoutState[];
}

const patternTypesOf = storedAs(Type.Union([Type.Array(literalUnion(PATTERN_TYPES)), Type.Null()]));
const bandOf = storedAs(Type.Union([literalUnion(SCORE_BANDS), Type.Null()]));
const timeframeOf = storedAs(literalUnion(TIMEFRAMES));
const directionOf = storedAs(literalUnion(RULE_DIRECTIONS));
const statesOf = storedAs(Type.Array(literalUnion(BREAKOUT_STATES)));

function storedRule(row: AlertRuleRow): StoredAlertRule {
  const what = `alert rule ${row.id}`;
  return {
    ...row,
    patternTypes: patternTypesOf(row.patternTypes ?? null, `${what} pattern types`),
    minBand: bandOf(row.minBand ?? null, `${what} min band`),
    timeframe: timeframeOf(row.timeframe, `${what} timeframe`),
    direction: directionOf(row.direction, `${what} direction`),
    states: statesOf(row.states, `${what} states`),
  };
}

/** The columns a caller may change (the owner and the id never change). */
export type AlertRuleChanges = Partial<Omit<AlertRuleRow, 'id' | 'userId' | 'createdAt'>>;

export class AlertRulesRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the rule unless the user already has `cap` rules (undefined then). */
  async create(row: AlertRuleRow, cap: number): Promise<StoredAlertRule | undefined> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'alert-rules', row.userId);
      const [held] = await tx.select({ n: count() }).from(alertRules).where(eq(alertRules.userId, row.userId));
      if (Number(held?.n ?? 0) >= cap) return undefined;
      const [inserted] = await tx.insert(alertRules).values(row).returning();
      return storedRule(inserted!);
    });
  }

  async page(userId: string, page: PageRequest): Promise<{ rows: StoredAlertRule[]; total: number }> {
    const owner = eq(alertRules.userId, userId);
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(alertRules)
        .where(and(owner, beyondCursor(alertRules.createdAt, alertRules.id, page)))
        .orderBy(...pageOrder(alertRules.createdAt, alertRules.id, page.order))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(alertRules).where(owner),
    ]);
    return { rows: rows.map(storedRule), total: Number(totals[0]?.n ?? 0) };
  }

  async get(userId: string, id: string): Promise<StoredAlertRule | undefined> {
    const [row] = await this.db.select().from(alertRules).where(and(eq(alertRules.id, id), eq(alertRules.userId, userId))).limit(1);
    return row && storedRule(row);
  }

  async update(userId: string, id: string, changes: AlertRuleChanges): Promise<StoredAlertRule | undefined> {
    const [row] = await this.db.update(alertRules).set(changes).where(and(eq(alertRules.id, id), eq(alertRules.userId, userId))).returning();
    return row && storedRule(row);
  }

  /** Deletes the rule with its dispatches and their deliveries (notifications stay); answers it as it was. */
  async delete(userId: string, id: string): Promise<StoredAlertRule | undefined> {
    const [row] = await this.db.delete(alertRules).where(and(eq(alertRules.id, id), eq(alertRules.userId, userId))).returning();
    return row && storedRule(row);
  }

  /** The webhook signing secret of a rule (the sender reads it per attempt, so a rotated secret signs the next one). */
  async secretOf(id: string): Promise<string | undefined> {
    const [row] = await this.db.select({ secret: alertRules.webhookSecret }).from(alertRules).where(eq(alertRules.id, id)).limit(1);
    return row?.secret ?? undefined;
  }

  /** Every user's enabled rules of a timeframe (the scan job evaluates them). */
  async enabledFor(timeframe: Timeframe): Promise<StoredAlertRule[]> {
    const rows = await this.db.select().from(alertRules).where(and(eq(alertRules.timeframe, timeframe), eq(alertRules.enabled, true)));
    return rows.map(storedRule);
  }
}
