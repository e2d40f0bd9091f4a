/** @module providers/edgar — SEC EDGAR: Form 4 insider transactions, filings, shares outstanding (see source.ts, parse.ts). */
export { createEdgarSource, EDGAR_MAX_RATE, EdgarSource, type EdgarOptions } from './source';
