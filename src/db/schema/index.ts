/** @module db/schema — every table, one a file. drizzle-kit reads this barrel. */
export * from './bars';
export * from './provider-cache';
export * from './scan-runs';
export * from './signals';
export * from './ledger';
export * from './alerts';
export * from './explanations';
export * from './api-keys';
export * from './replay-ledger';
export * from './replay-runs';
