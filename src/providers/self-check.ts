/**
 * @module providers/self-check
 * The health check of a quoting provider (Yahoo, Alpaca, Polygon): ask the
 * test symbol's quote and time it; a failure is `down` with the vendor's
 * words (`ProviderError` names the provider and the symbol).
 *
 * @example
 * quoteSelfCheck('alpaca', 'SPY', () => provider.snapshot({ symbol: 'SPY' })); // => { status: 'ok', latencyMs: 41.2, … }
 */
import { ProviderError, type SelfCheck } from './types';

export async function quoteSelfCheck(provider: string, symbol: string, quote: () => Promise<unknown>): Promise<SelfCheck> {
  const started = performance.now();
  const latency = () => Math.round((performance.now() - started) * 100) / 100;
  try {
    await quote();
    return { status: 'ok', provider, symbol, latencyMs: latency() };
  } catch (error) {
    const message = error instanceof ProviderError ? error.message : `${provider} (${symbol}): ${(error as Error).message}`;
    return { status: 'down', provider, symbol, latencyMs: latency(), message };
  }
}
