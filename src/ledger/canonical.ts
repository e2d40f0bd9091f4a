/**
 * @module ledger/canonical
 * Canonical JSON for hashing: object keys sorted by UTF-16 code units at every
 * level, no insignificant whitespace, numbers in ECMAScript's shortest
 * round-trip form — the JSON Canonicalization Scheme (RFC 8785) for the values
 * a ledger record holds (strings, finite numbers, booleans, null, arrays,
 * plain objects). Anyone can re-derive the bytes that were hashed.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // => '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const keys = Object.keys(value as object)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}
