/**
 * @module ai
 * Explanations by a language model: the providers (Anthropic Messages API,
 * any OpenAI-compatible chat-completions server), the gateway (timeout,
 * circuit breaker, Retry-After), the facts, the grounding check and the
 * explainer that caches what passed. With no model configured the gateway
 * has no provider and answers 503 `ai_unavailable` with the reason.
 */
import type { AiConfig } from '../config';
import type { ExplanationsRepository } from '../db/repositories/explanations';
import type { Logger } from '../log';
import { AnthropicProvider } from './anthropic';
import { Explainer } from './explainer';
import { ModelGateway } from './gateway';
import type { ModelProvider } from './interface';
import { OpenAiCompatibleProvider } from './openai';

export type { Explanation } from './explainer';
export type { AiStatus, CircuitName } from './gateway';
export { Explainer, ModelGateway };

/** The configured provider, or null when none is usable (`config.unavailableReason` says why). */
export function createModelProvider(config: AiConfig): ModelProvider | null {
  if (config.model === null) return null;
  if (config.provider === 'anthropic') return new AnthropicProvider({ baseUrl: config.baseUrl, apiKey: config.apiKey!, model: config.model });
  if (config.provider === 'openai') return new OpenAiCompatibleProvider({ baseUrl: config.baseUrl, apiKey: config.apiKey, model: config.model, responseFormat: config.responseFormat });
  return null;
}

export function createExplainer(config: AiConfig, deps: { repository: ExplanationsRepository; log: Logger }): Explainer {
  const gateway = new ModelGateway({
    provider: createModelProvider(config),
    providerName: config.provider,
    unavailableReason: config.unavailableReason,
    timeoutMs: config.timeoutMs,
    breaker: config.breaker,
    log: deps.log,
  });
  return new Explainer({ gateway, repository: deps.repository, log: deps.log, maxOutputTokens: config.maxOutputTokens });
}
