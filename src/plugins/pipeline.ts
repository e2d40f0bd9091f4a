/**
 * @module plugins/pipeline
 * The per-request steps before routing, in their one order: the request id,
 * the API version, the security headers, the size limits, the rate limit.
 * Each stage is a plugin's own step (plugins/step) with the Elysia plugin
 * that registers it; app.ts `use`s the plugins in this order and the fast
 * path (plugins/fast-path) runs the steps in this order, so a request gets
 * the same headers and refusals whichever way it comes.
 *
 * The order matters: the request id first (every refusal carries it), the
 * version and the security headers before any refusal that can follow them,
 * and the rate limit last, so a request refused for its version, head or
 * body is never counted.
 *
 * @example
 * const stages = requestStages({ defaultVersion: '1.0.0', security, rateLimit });
 * for (const { plugin } of stages) app.use(plugin);
 * runSteps(stages.map((s) => s.step), request, server, set);
 */
import type { AnyElysia } from 'elysia';
import type { ApiVersion } from '../config';
import { bodyLimitStage } from './body-limit';
import { rateLimitStage, type RateLimitOptions } from './rate-limit';
import { requestIdStage } from './request-id';
import { securityStage, type SecurityOptions } from './security';
import type { RequestStep } from './step';
import { versioningStage } from './versioning';

export interface PipelineOptions {
  defaultVersion: ApiVersion;
  security: SecurityOptions;
  rateLimit: RateLimitOptions;
}

/** One stage: the step, and the Elysia plugin that registers it as its `onRequest` hook. */
export interface Stage {
  step: RequestStep;
  plugin: AnyElysia;
}

export function requestStages(options: PipelineOptions): readonly Stage[] {
  return [requestIdStage, versioningStage(options.defaultVersion), securityStage(options.security), bodyLimitStage, rateLimitStage(options.rateLimit)];
}

/** The stages' plugins on `app`, in order (what the stages add to the app's types, each module `use`s itself). */
export function useStages<A extends AnyElysia>(app: A, stages: readonly Stage[]): A {
  for (const { plugin } of stages) app.use(plugin);
  return app;
}
