/**
 * @module ai/explainer
 * One explanation: look up the cache (signal id, facts hash, prompt version);
 * on a miss ask the model through the gateway, read the answer with zod, run
 * the grounding check, and on failure ask once more naming what failed. A
 * second failure is refused (502 `ai_refused`); nothing unverified is ever
 * returned or stored. Identical requests in flight share one model call.
 */
import type { ExplanationKey, ExplanationsRepository, StoredExplanation } from '../db/repositories/explanations';
import type { BulletGrounding } from '../domain/explanation';
import { AppError } from '../errors';
import type { Logger } from '../log';
import { round } from '../kernels/round';
import type { ExplainFacts } from './fact-schema';
import { factsHash } from './facts';
import type { AiStatus, CircuitName, ModelGateway } from './gateway';
import type { ModelUsage } from './interface';
import { ANSWER_JSON_SCHEMA, ANSWER_SCHEMA_NAME, PROMPT_VERSION, readAnswer, SYSTEM_PROMPT, userMessage } from './prompt';
import { groundBullets } from './grounding';

/** Model calls per explanation at most: the first answer and one retry. */
const MAX_ATTEMPTS = 2;

export interface Explanation {
  symbol: string;
  patternType: string;
  bullets: string[];
  modelUsed: string;
  /** Cached input tokens ÷ input tokens of the calls that wrote it, as the API reported them; null when it reported none. */
  cacheHitRatio: number | null;
  facts: ExplainFacts;
  grounding: BulletGrounding[];
  /** True when served from the explanation cache without a model call. */
  cached: boolean;
  generatedAt: string;
}

export interface ExplainerOptions {
  gateway: ModelGateway;
  repository: ExplanationsRepository;
  log: Logger;
  maxOutputTokens: number;
}

const ratio = (usage: Pick<ModelUsage, 'inputTokens' | 'cachedInputTokens'>) => (usage.inputTokens > 0 ? round(usage.cachedInputTokens / usage.inputTokens, 4) : null);

export class Explainer {
  private readonly inFlight = new Map<string, Promise<Explanation>>();

  constructor(private readonly options: ExplainerOptions) {}

  /** Whether a model is configured at all (else every miss answers 503). */
  get configured(): boolean {
    return this.options.gateway.configured;
  }

  /** The gateway's state: provider, model, circuit, counters (for health and metrics). */
  status(): AiStatus {
    return this.options.gateway.status();
  }

  onCircuitChange(listener: (state: CircuitName) => void): () => void {
    return this.options.gateway.onCircuitChange(listener);
  }

  /**
   * The explanation of `facts` for signal `signalId`.
   * @throws {AppError} `ai_unavailable` (no model, circuit open, upstream failure) or `ai_refused`.
   */
  async explain(signalId: string, facts: ExplainFacts): Promise<Explanation> {
    const key = { signalId, factsHash: factsHash(facts), promptVersion: PROMPT_VERSION };
    const stored = await this.options.repository.find(key);
    if (stored) return fromCache(stored, facts);
    const id = `${key.signalId}\u0000${key.factsHash}`;
    let pending = this.inFlight.get(id);
    if (!pending) {
      pending = this.generate(key, facts).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, pending);
    }
    return pending;
  }

  private async generate(key: ExplanationKey, facts: ExplainFacts): Promise<Explanation> {
    const { gateway, log, maxOutputTokens } = this.options;
    const usage: ModelUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
    let failures: string[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const reply = await gateway.call({ system: SYSTEM_PROMPT, user: userMessage(facts, failures), schema: ANSWER_JSON_SCHEMA, schemaName: ANSWER_SCHEMA_NAME, maxOutputTokens });
      usage.inputTokens += reply.usage.inputTokens;
      usage.cachedInputTokens += reply.usage.cachedInputTokens;
      usage.outputTokens += reply.usage.outputTokens;
      const read = readAnswer(reply.answer);
      if ('answer' in read) {
        const checked = groundBullets(read.answer.bullets, facts);
        if (checked.failures.length === 0) return this.accept(key, facts, { bullets: read.answer.bullets, grounding: checked.grounding, model: reply.model, usage, attempts: attempt });
        failures = checked.failures;
      } else {
        failures = [read.problem];
      }
      log.warn('model answer refused', { signalId: key.signalId, attempt, model: reply.model, failures });
    }
    throw new AppError('ai_refused', `The model's explanation was refused after ${MAX_ATTEMPTS} attempts, so none is shown: ${failures.join('; ')}`);
  }

  /** A grounded answer: stored once under its key (a storage failure is logged, the answer still returned). */
  private async accept(key: ExplanationKey, facts: ExplainFacts, answer: { bullets: string[]; grounding: BulletGrounding[]; model: string; usage: ModelUsage; attempts: number }): Promise<Explanation> {
    const { gateway, repository, log } = this.options;
    const explanation: Explanation = {
      symbol: facts.signal.symbol,
      patternType: facts.signal.patternType,
      bullets: answer.bullets,
      modelUsed: answer.model,
      cacheHitRatio: ratio(answer.usage),
      facts,
      grounding: answer.grounding,
      cached: false,
      generatedAt: new Date().toISOString(),
    };
    await repository
      .save({
        ...key,
        symbol: explanation.symbol,
        patternType: explanation.patternType,
        provider: gateway.status().provider,
        model: answer.model,
        bullets: answer.bullets,
        grounding: answer.grounding,
        facts,
        ...answer.usage,
        attempts: answer.attempts,
        createdAt: new Date(explanation.generatedAt),
      })
      .catch((error) => log.error('explanation not cached', { signalId: key.signalId, error: String(error) }));
    log.info('explanation written', { signalId: key.signalId, model: answer.model, attempts: answer.attempts, ...answer.usage });
    return explanation;
  }
}

function fromCache(row: StoredExplanation, facts: ExplainFacts): Explanation {
  return {
    symbol: row.symbol,
    patternType: row.patternType,
    bullets: row.bullets,
    modelUsed: row.model,
    cacheHitRatio: ratio(row),
    facts,
    grounding: row.grounding,
    cached: true,
    generatedAt: row.createdAt.toISOString(),
  };
}
