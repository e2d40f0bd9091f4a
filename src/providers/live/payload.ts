/**
 * @module providers/live/payload
 * What the vendor adapters (Alpaca, Polygon) share in reading what vendors
 * send: a REST payload checked against its documented shape, and the JSON
 * array every stream frame of theirs is, read message by message.
 */
import type { z } from 'zod';
import { ProviderError } from '../types';
import type { StreamMessage } from './types';

/** `payload` as `schema` reads it, else a `ProviderError('bad_payload')` naming the vendor, the symbol and the first misfit. */
export function vendorPayload<T>(schema: z.ZodType<T>, payload: unknown, vendor: string, symbol: string | null, what: string): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ProviderError('bad_payload', vendor, symbol, `${what} is not ${vendor}'s shape (${issue?.path.join('.') || 'body'}: ${issue?.message})`);
}

/** Every message of a stream frame (a JSON array of objects, or one object); a frame that is not JSON carries nothing to act on. */
export function frameMessages(frame: string, read: (item: Record<string, unknown>) => StreamMessage): StreamMessage[] {
  let raw: unknown;
  try {
    raw = JSON.parse(frame);
  } catch {
    return [{ kind: 'other' }];
  }
  return (Array.isArray(raw) ? raw : [raw]).map((item) => (item !== null && typeof item === 'object' ? read(item as Record<string, unknown>) : { kind: 'other' }));
}

/** A wire field as a number (NaN when it is not one). */
export const wireNumber = (x: unknown): number => (typeof x === 'number' ? x : NaN);
