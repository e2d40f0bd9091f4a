/**
 * @module providers/compose
 * One provider out of a bar provider and capability sources (SEC EDGAR for
 * insiders, filings and share counts; FINRA for short interest): each optional
 * capability is answered by the first source that has it, then by the bar
 * provider. Bars, quotes, the universe and the health check stay the bar
 * provider's. `sourceOf` names who answers a capability, so responses can say
 * where their data came from.
 *
 * @example
 * const provider = composeProvider(yahoo, [edgar, finra]);
 * provider.sourceOf('insider'); // => 'edgar'
 */
import { CAPABILITY_METHODS, type Capability, type CapabilityMethod, type CapabilitySource, type MarketDataProvider } from './types';

export interface ComposedProvider extends MarketDataProvider {
  /** The name of the source answering `capability`, or undefined when none does. */
  sourceOf(capability: Capability): string | undefined;
}

export function composeProvider(base: MarketDataProvider, sources: readonly CapabilitySource[]): ComposedProvider {
  const chain: readonly CapabilitySource[] = [...sources, base];
  const answering = (capability: Capability) => chain.find((s) => s.capabilities.has(capability));
  const capabilities = new Set<Capability>(chain.flatMap((s) => [...s.capabilities]));
  const composed: ComposedProvider = {
    name: base.name,
    capabilities,
    synthetic: base.synthetic,
    remote: base.remote,
    testSymbol: base.testSymbol,
    universe: () => base.universe(),
    bars: (query) => base.bars(query),
    prepare: base.prepare?.bind(base),
    snapshot: (query) => base.snapshot(query),
    quoteTime: base.quoteTime?.bind(base),
    now: base.now?.bind(base),
    longestSeries: base.longestSeries,
    selfCheck: () => base.selfCheck(),
    live: base.live,
    earningsDates: base.earningsDates?.bind(base),
    sourceOf: (capability) => answering(capability)?.name,
  };
  for (const [method, capability] of Object.entries(CAPABILITY_METHODS) as [CapabilityMethod, Capability][]) {
    const source = answering(capability);
    const fn = source?.[method];
    if (source && fn) Object.assign(composed, { [method]: fn.bind(source) });
  }
  return composed;
}
