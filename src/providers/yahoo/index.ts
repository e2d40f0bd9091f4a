/** @module providers/yahoo — Yahoo Finance chart, quote and options JSON (see provider.ts, parse.ts). */
export { createYahooProvider, fourHourBars, YahooProvider, type YahooProviderOptions } from './provider';
