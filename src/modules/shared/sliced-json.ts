/**
 * @module modules/shared/sliced-json
 * A large JSON answer serialised a slice of its list at a time, with the
 * event loop free between slices (issue 27), as the same bytes Elysia sends
 * for the returned object: each item through the mirror of its response
 * schema (exact-mirror: fields in the schema's order, others dropped), then
 * spliced into the mirrored envelope at its list fields, in the envelope's
 * schema order. Elysia's own path checks, encodes, mirrors and stringifies
 * the whole answer in one stretch: for 500 universe rows 170 ms of the
 * server's thread at load 5 (bench/stall, bench/profile-stretches), for a
 * history page of 200 signals (twice) 868 ms of a `/livez` probe at load 13.
 *
 * A route sends the text as held JSON (modules/shared/params `jsonResponse`),
 * which skips Elysia's response check: the item type is the route's response
 * schema's, so the mirror keeps the schema's shape.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import { createMirror } from 'exact-mirror';
import { yieldToEventLoop } from '../../db/client';

/** Items serialised between two turns of the event loop. */
export const SERIALIZE_SLICE = 50;

/**
 * A serialiser of envelopes of `envelopeSchema` whose `listKeys` fields all hold one list of items of
 * `itemSchema` (the same list under each key, serialised once).
 */
export function slicedJson<E extends Record<string, unknown>, I>(envelopeSchema: TSchema, itemSchema: TSchema, listKeys: readonly (keyof E & string)[]) {
  const mirrorItem = createMirror(itemSchema, { TypeCompiler }) as (item: I) => unknown;
  const mirrorEnvelope = createMirror(envelopeSchema, { TypeCompiler }) as (envelope: E) => Record<string, unknown>;
  const lists = new Set<string>(listKeys);
  return async (envelope: E, items: readonly I[], slice = SERIALIZE_SLICE): Promise<string> => {
    const parts: string[] = [];
    for (let i = 0; i < items.length; i += slice) {
      if (i > 0) await yieldToEventLoop();
      parts.push(JSON.stringify(items.slice(i, i + slice).map(mirrorItem)).slice(1, -1));
    }
    const list = `[${parts.join(',')}]`;
    const empty = Object.fromEntries(listKeys.map((key) => [key, []]));
    const mirrored = mirrorEnvelope({ ...envelope, ...empty });
    const fields = Object.entries(mirrored).flatMap(([key, value]) => (value === undefined ? [] : [`${JSON.stringify(key)}:${lists.has(key) ? list : JSON.stringify(value)}`]));
    return `{${fields.join(',')}}`;
  };
}
