/**
 * @module providers/live/listeners
 * The listeners of one kind of live event (bars, window closes): added with a
 * function that removes them, each called in turn. Both live feeds — the
 * vendor's own (./feed) and the cluster's (./cluster) — hand their bars and
 * closes on through these.
 */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Adds a listener; returns the function that removes it. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(value: T): void {
    for (const listener of this.set) listener(value);
  }
}
