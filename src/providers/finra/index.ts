/** @module providers/finra — FINRA bi-monthly equity short-interest files (see source.ts). */
export { createFinraSource, FinraSource, parseShortInterestFile, settlementDates, type FinraOptions } from './source';
