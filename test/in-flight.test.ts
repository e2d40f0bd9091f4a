/**
 * Identical reads asked at once share one (src/in-flight.ts): the callers
 * meanwhile get the one promise, a caller after it settled starts afresh, and
 * two owners never share.
 */
import { describe, expect, it } from 'bun:test';
import { inFlight } from '../src/in-flight';

describe('inFlight', () => {
  it('gives callers asking meanwhile the one read, and starts afresh once it has settled', async () => {
    const shared = inFlight<object, number>();
    const owner = {};
    let starts = 0;
    const read = () => Promise.resolve(++starts);
    const [a, b, c] = await Promise.all([shared(owner, 'k', read), shared(owner, 'k', read), shared(owner, 'k', read)]);
    expect([a, b, c, starts]).toEqual([1, 1, 1, 1]);
    expect(await shared(owner, 'k', read)).toBe(2);
  });

  it('keeps owners and keys apart', async () => {
    const shared = inFlight<object, string>();
    const [one, two] = [{}, {}];
    const answers = await Promise.all([shared(one, 'k', async () => 'one k'), shared(two, 'k', async () => 'two k'), shared(one, 'j', async () => 'one j')]);
    expect(answers).toEqual(['one k', 'two k', 'one j']);
  });

  it('forgets a read that failed, so the next caller tries again', async () => {
    const shared = inFlight<object, string>();
    const owner = {};
    await expect(shared(owner, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await shared(owner, 'k', async () => 'back')).toBe('back');
  });
});
