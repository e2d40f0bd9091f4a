/**
 * The explain tests' check of an answer's grounding: every number in every
 * bullet is cited, and each citation names a fact that rounds to what the
 * bullet states.
 */
import { expect } from 'bun:test';
import { mentionsOf } from '../../src/ai/grounding';
import type { ExplainResponse } from '../../src/modules/ai/model';

/** The value at a grounding path such as `history[0].hitRatePct`. */
function valueAt(facts: unknown, path: string): unknown {
  return path.split(/\.|(?=\[)/).reduce<unknown>((node, key) => {
    const index = /^\[(\d+)\]$/.exec(key);
    if (node === null || typeof node !== 'object') return undefined;
    return index ? (node as unknown[])[Number(index[1])] : (node as Record<string, unknown>)[key];
  }, facts);
}

/** Every number in every bullet is cited, and each citation names a fact that rounds to what the bullet states. */
export function expectGrounded(body: ExplainResponse): void {
  expect(body.bullets.length).toBeGreaterThanOrEqual(3);
  expect(body.bullets.length).toBeLessThanOrEqual(6);
  expect(body.grounding.map((g) => g.bullet)).toEqual(body.bullets.map((_, i) => i));
  expect(body.grounding.some((g) => g.citations.length > 0)).toBe(true);
  for (const { bullet, citations } of body.grounding) {
    const text = body.bullets[bullet]!;
    expect(citations).toHaveLength(mentionsOf(text).length);
    for (const c of citations) {
      expect(text).toContain(c.text);
      const fact = valueAt(body.facts, c.fact);
      if (typeof c.value === 'string') {
        expect(String(fact)).toContain(c.value);
        continue;
      }
      expect(fact).toBe(c.value);
      const digits = /(\d[\d,]*)(?:\.(\d+))?/.exec(c.text)!;
      const stated = Number(`${digits[1]!.replaceAll(',', '')}.${digits[2] ?? '0'}`);
      const half = 0.5 * 10 ** -(digits[2]?.length ?? 0) + 1e-9;
      expect([Math.abs(c.value), Math.abs(c.value) * 100].some((v) => Math.abs(v - stated) <= half)).toBe(true);
    }
  }
}
