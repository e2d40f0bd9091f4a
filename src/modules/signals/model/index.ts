/**
 * @module modules/signals/model
 * Schemas of the Signals tag, a file per route (breakouts, history, universe,
 * confluence, forecast) and their OpenAPI text (docs).
 */
export * from './breakouts';
export * from './confluence';
export * from './docs';
export * from './forecast';
export * from './history';
export * from './universe';
