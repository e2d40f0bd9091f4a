/**
 * @module db/repositories/explanations
 * The explanation cache (db/schema/explanations): a lookup by its key and a
 * write-once insert. Stored JSON comes back through checked mappers.
 */
import { Type } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import { storedAs } from '../../domain/check';
import { BulletGroundingSchema, type BulletGrounding } from '../../domain/explanation';
import type { Db } from '../client';
import { explanations, type ExplanationRow, type NewExplanationRow } from '../schema';

/** What an explanation is stored under. */
export interface ExplanationKey {
  signalId: string;
  factsHash: string;
  promptVersion: string;
}

const bulletsOf = storedAs(Type.Array(Type.String()));
const groundingOf = storedAs(Type.Array(BulletGroundingSchema));

/** A stored explanation with its JSON columns checked. */
export interface StoredExplanation extends Omit<ExplanationRow, 'bullets' | 'grounding'> {
  bullets: string[];
  grounding: BulletGrounding[];
}

export class ExplanationsRepository {
  constructor(private readonly db: Db) {}

  async find(key: ExplanationKey): Promise<StoredExplanation | undefined> {
    const [row] = await this.db
      .select()
      .from(explanations)
      .where(and(eq(explanations.signalId, key.signalId), eq(explanations.factsHash, key.factsHash), eq(explanations.promptVersion, key.promptVersion)))
      .limit(1);
    if (!row) return undefined;
    const what = `explanation ${row.signalId} ${row.factsHash.slice(0, 12)}`;
    return { ...row, bullets: bulletsOf(row.bullets, `${what} bullets`), grounding: groundingOf(row.grounding, `${what} grounding`) };
  }

  /** Stores an explanation once; a row already under the key is kept as it is (first writer wins). */
  async save(row: NewExplanationRow): Promise<void> {
    await this.db.insert(explanations).values(row).onConflictDoNothing();
  }
}
