/**
 * @module lru
 * A bounded map that drops its least recently used entries past a number of
 * entries (and, given `sizeOf`, past a byte budget). The composition root
 * (services.ts) builds the instances; nothing holds one at module level.
 *
 * @example
 * const queries = new Lru<string, string>({ maxEntries: 2 });
 * queries.set('a', '{ x }'); queries.set('b', '{ y }'); queries.get('a'); queries.set('c', '{ z }');
 * queries.has('b'); // => false (the least recently used went out)
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();
  private bytes = 0;

  constructor(private readonly limits: { maxEntries: number; maxBytes?: number; sizeOf?: (value: V) => number }) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Keeps `value` (a value larger than the whole byte budget is not kept). */
  set(key: K, value: V): void {
    this.delete(key);
    const size = this.limits.sizeOf?.(value) ?? 0;
    if (this.limits.maxBytes !== undefined && size > this.limits.maxBytes) return;
    this.entries.set(key, value);
    this.bytes += size;
    for (const [oldKey] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && (this.limits.maxBytes === undefined || this.bytes <= this.limits.maxBytes)) break;
      this.delete(oldKey);
    }
  }

  delete(key: K): boolean {
    const value = this.entries.get(key);
    if (value === undefined) return false;
    this.entries.delete(key);
    this.bytes -= this.limits.sizeOf?.(value) ?? 0;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
