/**
 * @module stream/visibility
 * Who sees what of an event. Breakouts are public data. An `alerts.dispatched`
 * of a user's own rule carries the rule (`ruleId`, `rule`) only on that user's
 * streams; everyone else sees that the alert went out (the signal is public)
 * but not whose rule or what it says. The service's own alerts (no owner) keep
 * their `ruleId` for all. The owner's id itself is never sent.
 */
import type { AlertDispatchedBusEvent, AlertDispatchedEvent } from '../domain/events';

/**
 * Who holds a stream: a signed-in user (session or API key, resolved by the
 * auth plugin), or null for an anonymous public stream.
 */
export type StreamPrincipal = { userId: string } | null;

/** The payload everyone but the rule's owner receives. */
export function publicAlert({ alertId, signalId, symbol, ruleId, at, userId }: AlertDispatchedBusEvent): AlertDispatchedEvent {
  return userId === undefined && ruleId !== undefined ? { alertId, signalId, symbol, ruleId, at } : { alertId, signalId, symbol, at };
}

/** The payload the owner of the rule receives (with the rule's details). */
export function ownerAlert({ alertId, signalId, symbol, ruleId, rule, at }: AlertDispatchedBusEvent): AlertDispatchedEvent {
  return { alertId, signalId, symbol, ...(ruleId === undefined ? {} : { ruleId }), ...(rule === undefined ? {} : { rule }), at };
}

/**
 * The key per-client connection caps count under: the user when signed in
 * (all of a user's keys and sessions share it), else the client IP.
 */
export function connectionKey(principal: StreamPrincipal, ip: string): string {
  return principal ? `user:${principal.userId}` : `ip:${ip}`;
}
