/**
 * @module test/helpers/until
 * Waiting for a condition in real time — the one way the tests wait for
 * something asynchronous (a stream event, a relayed message, a job's last
 * event) instead of sleeping a guessed time. The deadline is a safety net on a
 * busy machine, not a timing assertion.
 */

/** Polls `ready` every 5 ms until it holds; fails with `what` after `ms`. */
export async function until(what: string, ready: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}
