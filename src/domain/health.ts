/**
 * @module domain/health
 * What a health check says about one subsystem (the spec's HealthResponse
 * `checks` members), and the subsystems the service checks.
 */
import { Type, type Static } from '@sinclair/typebox';

export const CheckStatus = Type.Union([Type.Literal('ok'), Type.Literal('down'), Type.Literal('warn'), Type.Literal('degraded')]);
export type CheckStatus = Static<typeof CheckStatus>;

/** One check's outcome: its status, how long it took, and what failed when it is not ok. */
export const CheckResult = Type.Object({ status: CheckStatus, latencyMs: Type.Number(), message: Type.Optional(Type.String()) });
export type CheckResult = Static<typeof CheckResult>;

/** The subsystems checked: the spec's four, the worker pool every scan runs in, and the realtime event bus. */
export const CHECKS = ['db', 'dataAdapter', 'env', 'kv', 'pool', 'bus'] as const;
export type CheckName = (typeof CHECKS)[number];
