/**
 * @module stream/bus
 * The event bus that jobs publish to and the realtime stream reads from. The
 * in-process bus is the default; a Redis pub/sub bus behind the same interface
 * fans events out between instances (the realtime issue adds it). Payloads are
 * DESIGN §4's SSE payloads.
 */
import { EventEmitter } from 'node:events';

export interface BusEvents {
  'breakouts.new': { signal: unknown };
  'breakouts.state_change': { signalId: string; symbol: string; from: string | null; to: string; price: number; at: string };
  'alerts.dispatched': { alertId: string; signalId: string; symbol: string; ruleId?: string; at: string };
  /**
   * A universe backtest job moved (jobs/backtest): for its owner only. The
   * stream must deliver it solely to connections authenticated as `userId`.
   */
  'backtest.progress': { jobId: string; userId: string; status: 'queued' | 'running' | 'succeeded' | 'failed'; phase: string; done: number; total: number; at: string };
}
export type Channel = keyof BusEvents;

export interface EventBus {
  publish<C extends Channel>(channel: C, payload: BusEvents[C]): void;
  /** Returns the unsubscribe function. */
  subscribe<C extends Channel>(channel: C, listener: (payload: BusEvents[C]) => void): () => void;
}

export class InProcessBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish<C extends Channel>(channel: C, payload: BusEvents[C]): void {
    this.emitter.emit(channel, payload);
  }

  subscribe<C extends Channel>(channel: C, listener: (payload: BusEvents[C]) => void): () => void {
    this.emitter.on(channel, listener);
    return () => this.emitter.off(channel, listener);
  }
}
