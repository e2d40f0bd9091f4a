/**
 * @module ai/gateway
 * Every model call goes through here: a per-request timeout, a circuit
 * breaker and a `Retry-After` hold, composed with cockatiel.
 *
 * - **Timeout**: `AI_TIMEOUT_MS` per call (cockatiel `timeout`, aggressive:
 *   the call's fetch is aborted and the caller answered at the deadline).
 * - **Breaker**: `AI_BREAKER_FAILURES` consecutive failed or timed-out calls
 *   open the circuit; while open, calls fail at once (503 `ai_unavailable`,
 *   `Retry-After` = seconds until the probe). After
 *   `AI_BREAKER_HALF_OPEN_SECONDS` one request is let through as a probe
 *   (callers arriving meanwhile wait for its verdict): success closes the
 *   circuit, failure opens it again for another period.
 * - **Retry-After**: a 429 (or 503) carrying `Retry-After` holds every call
 *   until that time has passed, whatever the breaker says.
 *
 * Time is `Date.now()` throughout (cockatiel reads it for the open period),
 * so a test moves the clock with `setSystemTime` instead of sleeping.
 * `status()` is the state for /api/health and metrics; `onCircuitChange`
 * announces each transition; transitions are logged.
 */
import { BrokenCircuitError, circuitBreaker, ConsecutiveBreaker, CircuitState, handleAll, TaskCancelledError, timeout, TimeoutStrategy, wrap, type CircuitBreakerPolicy } from 'cockatiel';
import { AppError } from '../errors';
import type { Logger } from '../log';
import { ModelCallError, type ModelProvider, type ModelReply, type ModelRequest } from './interface';

export const CIRCUIT_STATES = ['closed', 'open', 'half_open', 'isolated', 'disabled'] as const;
export type CircuitName = (typeof CIRCUIT_STATES)[number];

const NAMES: Record<CircuitState, CircuitName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'isolated',
};

/** What /api/health and the metrics read. */
export interface AiStatus {
  provider: string;
  model: string | null;
  /** `disabled` when no model is configured. */
  circuit: CircuitName;
  /** Why no model can be asked (no key, no endpoint), when disabled. */
  reason: string | null;
  consecutiveFailures: number;
  lastFailure: string | null;
  openedAt: string | null;
  /** When the next probe may run, while open. */
  probeAt: string | null;
  /** Calls are held until then by an upstream `Retry-After`. */
  heldUntil: string | null;
  /** Since start: calls sent upstream, their outcomes, and calls refused without one. */
  counters: { calls: number; successes: number; failures: number; timeouts: number; rateLimited: number; shortCircuited: number };
}

export interface GatewayOptions {
  /** The configured model, or null with the reason none is usable. */
  provider: ModelProvider | null;
  providerName: string;
  unavailableReason?: string;
  timeoutMs: number;
  breaker: { failures: number; halfOpenAfterMs: number };
  log: Logger;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class ModelGateway {
  private readonly breaker: CircuitBreakerPolicy;
  private readonly policy;
  private readonly listeners = new Set<(state: CircuitName) => void>();
  private heldUntil = 0;
  private openedAt: number | null = null;
  private consecutiveFailures = 0;
  private lastFailure: string | null = null;
  private readonly counters = { calls: 0, successes: 0, failures: 0, timeouts: 0, rateLimited: 0, shortCircuited: 0 };

  constructor(private readonly options: GatewayOptions) {
    const { log } = options;
    this.breaker = circuitBreaker(handleAll, { halfOpenAfter: options.breaker.halfOpenAfterMs, breaker: new ConsecutiveBreaker(options.breaker.failures) });
    this.policy = wrap(this.breaker, timeout(options.timeoutMs, TimeoutStrategy.Aggressive));
    const where = { provider: options.providerName, model: options.provider?.model ?? null };
    // Failures are counted as cockatiel sees them, before it decides to open.
    this.breaker.onFailure(({ reason }) => {
      this.consecutiveFailures++;
      this.counters.failures++;
      this.lastFailure = 'error' in reason ? this.describe(reason.error) : 'unexpected result';
      log.warn('ai model call failed', { ...where, error: this.lastFailure, consecutiveFailures: this.consecutiveFailures });
    });
    this.breaker.onSuccess(() => {
      this.consecutiveFailures = 0;
      this.heldUntil = 0; // the upstream answered: an earlier Retry-After is spent
      this.counters.successes++;
    });
    this.breaker.onBreak(() => {
      this.openedAt = Date.now();
      log.warn('ai circuit opened', { ...where, consecutiveFailures: this.consecutiveFailures, lastFailure: this.lastFailure, probeInMs: options.breaker.halfOpenAfterMs });
    });
    this.breaker.onHalfOpen(() => log.info('ai circuit half-open: one probe request goes upstream', where));
    this.breaker.onReset(() => {
      this.openedAt = null;
      log.info('ai circuit closed', where);
    });
    this.breaker.onStateChange((state) => {
      for (const listener of this.listeners) listener(NAMES[state]);
    });
  }

  /** Whether a model is configured at all. */
  get configured(): boolean {
    return this.options.provider !== null;
  }

  /**
   * One model call through the timeout, breaker and hold.
   * @throws {AppError} `ai_unavailable` (503) when no model is configured, the
   *   circuit is open, a `Retry-After` holds calls, or the call failed or timed out.
   */
  async call(request: Omit<ModelRequest, 'signal'>): Promise<ModelReply> {
    const { provider } = this.options;
    if (!provider) throw new AppError('ai_unavailable', `AI explanations are unavailable: ${this.options.unavailableReason ?? 'no model configured'}`);
    const now = Date.now();
    if (now < this.heldUntil) {
      this.counters.shortCircuited++;
      throw new AppError('ai_unavailable', `AI explanations are unavailable: ${provider.name} asked us to wait (Retry-After) until ${new Date(this.heldUntil).toISOString()}`, { 'retry-after': String(seconds(this.heldUntil - now)) });
    }
    try {
      return await this.policy.execute(({ signal }) => {
        this.counters.calls++;
        return provider.complete({ ...request, signal });
      });
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        this.counters.shortCircuited++;
        const probeIn = (this.probeAt() ?? Date.now() + this.options.breaker.halfOpenAfterMs) - Date.now();
        throw new AppError('ai_unavailable', `AI explanations are unavailable: the circuit is open after ${this.consecutiveFailures} failed model calls (last: ${this.lastFailure ?? 'unknown'})`, { 'retry-after': String(seconds(probeIn)) });
      }
      const headers: Record<string, string> = {};
      if (error instanceof TaskCancelledError) this.counters.timeouts++;
      if (error instanceof ModelCallError) {
        if (error.failure === 'rate_limited') this.counters.rateLimited++;
        if (error.retryAfterMs !== undefined) {
          this.heldUntil = Math.max(this.heldUntil, Date.now() + error.retryAfterMs);
          headers['retry-after'] = String(seconds(error.retryAfterMs));
        }
      }
      throw new AppError('ai_unavailable', `AI explanations are unavailable: ${this.describe(error)}`, headers);
    }
  }

  /** A failed call in one phrase naming the provider. */
  private describe(error: unknown): string {
    const name = this.options.providerName;
    if (error instanceof TaskCancelledError) return `${name}: no answer within ${this.options.timeoutMs} ms`;
    if (error instanceof ModelCallError) return error.message;
    return `${name}: ${(error as Error).message}`;
  }

  /** Listens to circuit transitions (closed, open, half_open, isolated); returns the unsubscribe. */
  onCircuitChange(listener: (state: CircuitName) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): AiStatus {
    const { provider } = this.options;
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      provider: this.options.providerName,
      model: provider?.model ?? null,
      circuit: provider ? NAMES[this.breaker.state] : 'disabled',
      reason: provider ? null : (this.options.unavailableReason ?? 'no model configured'),
      consecutiveFailures: this.consecutiveFailures,
      lastFailure: this.lastFailure,
      openedAt: iso(this.openedAt),
      probeAt: iso(this.probeAt()),
      heldUntil: this.heldUntil > Date.now() ? iso(this.heldUntil) : null,
      counters: { ...this.counters },
    };
  }

  private probeAt(): number | null {
    return this.breaker.state === CircuitState.Open && this.openedAt !== null ? this.openedAt + this.options.breaker.halfOpenAfterMs : null;
  }
}
