/**
 * @module in-flight
 * Identical reads asked at once share one (issue 27): five cold callers of the
 * same page make one read and one body, not five in the server's thread. Kept
 * per owner (a server's sources or repository, so two servers in one process
 * never share) and only while the read runs: a later caller reads afresh.
 *
 * @example
 * const shared = inFlight<ScansRepository, string>();
 * const text = await shared(scans, JSON.stringify(query), () => readPage(scans, query));
 */
export function inFlight<O extends object, T>(): (owner: O, key: string, start: () => Promise<T>) => Promise<T> {
  const byOwner = new WeakMap<O, Map<string, Promise<T>>>();
  return (owner, key, start) => {
    let pending = byOwner.get(owner);
    if (!pending) byOwner.set(owner, (pending = new Map()));
    const running = pending.get(key);
    if (running) return running;
    const started = start();
    const held = pending;
    held.set(key, started);
    const forget = () => held.delete(key);
    started.then(forget, forget);
    return started;
  };
}
