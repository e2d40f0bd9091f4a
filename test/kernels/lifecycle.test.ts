import { describe, expect, it } from 'bun:test';
import { BREAKOUT_STATES } from '../../src/domain/signal';
import { advance, failureLevel, failureRuleName, FAILURE_RULE, initialSnapshot, NO_FAILURE_TRANSITIONS, step, TRANSITIONS, type FailureRule, type LifecycleBar, type LifecycleSnapshot } from '../../src/kernels/lifecycle';
import { seededRandom } from '../helpers/random';

const long = () => initialSnapshot({ direction: 'long', trigger: 100, target1: 110, stopLoss: 95 });
const short = () => initialSnapshot({ direction: 'short', trigger: 100, target1: 90, stopLoss: 105 });
let t = 0;
const bar = (close: number, opts: Partial<LifecycleBar> = {}): LifecycleBar => ({ ts: ++t, high: close + 0.5, low: close - 0.5, close, volumeRatio: 1.5, ...opts });
const states = (transitions: { to: string }[]) => transitions.map((x) => x.to);

describe('breakout lifecycle', () => {
  it('triggers on a close above the trigger, confirms after 3 holding closes on volume, then hits the target', () => {
    const { snapshot, transitions } = advance(long(), [bar(99), bar(101), bar(102), bar(103), bar(108), bar(109.8, { high: 110.2 })]);
    expect(states(transitions)).toEqual(['triggered', 'confirmed', 'target_hit']);
    expect(snapshot.state).toBe('target_hit');
    expect(transitions[2]!.price).toBe(110);
  });

  it('does not confirm on thin volume', () => {
    const { snapshot } = advance(long(), [bar(101, { volumeRatio: 0.6 }), bar(102, { volumeRatio: 0.7 }), bar(102.5, { volumeRatio: 0.8 })]);
    expect(snapshot.state).toBe('triggered');
  });

  it('fails when a triggered breakout closes back inside the pattern', () => {
    const { transitions } = advance(long(), [bar(101), bar(98.5)]);
    expect(states(transitions)).toEqual(['triggered', 'failed']);
  });

  it('tolerates a close just under the trigger (within the 1% buffer)', () => {
    const { snapshot } = advance(long(), [bar(101), bar(99.5)]);
    expect(snapshot.state).toBe('triggered');
  });

  it('counts a bar that touches both the target and the stop as stopped', () => {
    const confirmed: LifecycleSnapshot = { ...long(), state: 'confirmed' };
    const { next, transition } = step(confirmed, bar(100, { high: 111, low: 94 }));
    expect(next.state).toBe('stopped');
    expect(transition).toMatchObject({ from: 'confirmed', to: 'stopped', price: 95 });
  });

  it('expires a forming signal that never triggers, or closes through its stop', () => {
    const quiet = Array.from({ length: 16 }, () => bar(98));
    expect(states(advance(long(), quiet).transitions)).toEqual(['expired']);
    expect(advance(long(), quiet.slice(0, 15)).snapshot.state).toBe('forming');
    expect(states(advance(long(), [bar(94.9)]).transitions)).toEqual(['expired']);
  });

  it('mirrors every rule for shorts', () => {
    const { transitions } = advance(short(), [bar(99), bar(98), bar(97), bar(91), bar(90.4, { low: 89.9 })]);
    expect(states(transitions)).toEqual(['triggered', 'confirmed', 'target_hit']);
    expect(states(advance(short(), [bar(99), bar(101.5)]).transitions)).toEqual(['triggered', 'failed']);
  });

  it('never leaves a terminal state', () => {
    const done: LifecycleSnapshot = { ...long(), state: 'failed' };
    expect(advance(done, [bar(150), bar(50)]).transitions).toEqual([]);
  });

  it('makes only the transitions DESIGN §4 allows, on random walks', () => {
    const rand = seededRandom(7);
    let moves = 0;
    for (let run = 0; run < 500; run++) {
      let price = 100;
      const bars = Array.from({ length: 60 }, () => {
        price *= 1 + (rand() - 0.48) * 0.04;
        return bar(price, { high: price * (1 + rand() * 0.02), low: price * (1 - rand() * 0.02), volumeRatio: rand() * 2.5 });
      });
      const { transitions } = advance(run % 2 ? long() : short(), bars);
      moves += transitions.length;
      for (const x of transitions) expect(TRANSITIONS[x.from]).toContain(x.to);
      for (let i = 1; i < transitions.length; i++) expect(transitions[i]!.from).toBe(transitions[i - 1]!.to);
    }
    expect(moves).toBeGreaterThan(0);
    expect(BREAKOUT_STATES).toHaveLength(7);
  });
});

describe('failure rules', () => {
  const setupLong = { direction: 'long' as const, trigger: 100, target1: 110, stopLoss: 95 };
  const setupShort = { direction: 'short' as const, trigger: 100, target1: 90, stopLoss: 105 };
  const inputs = { atr: 2, depthPct: 12 };
  type Setup = { direction: 'long' | 'short'; trigger: number; target1: number; stopLoss: number };
  const under = (rule: FailureRule, setup: Setup = setupLong) => initialSnapshot({ ...setup, failLevel: failureLevel(rule, setup, inputs) });

  it('sets each level from the trigger, the ATR and the depth (and mirrors it for a short)', () => {
    expect(failureLevel({ kind: 'trigger', buffer: 0.01 }, setupLong)).toBe(99);
    expect(failureLevel({ kind: 'atr', multiple: 1.5 }, setupLong, inputs)).toBe(97); // 100 − 1.5 × 2
    expect(failureLevel({ kind: 'base', fraction: 0.5 }, setupLong, inputs)).toBe(94); // 100 × (1 − 0.5 × 12%)
    expect(failureLevel({ kind: 'none' }, setupLong, inputs)).toBeNull();
    expect(failureLevel({ kind: 'trigger', buffer: 0.01 }, setupShort)).toBe(101);
    expect(failureLevel({ kind: 'atr', multiple: 1.5 }, setupShort, inputs)).toBe(103);
    expect(failureLevel({ kind: 'base', fraction: 0.5 }, setupShort, inputs)).toBe(106);
  });

  it('falls back to the 1% buffer when a rule lacks its input', () => {
    expect(failureLevel({ kind: 'atr', multiple: 1.5 }, setupLong, { atr: Number.NaN })).toBe(99);
    expect(failureLevel({ kind: 'base', fraction: 0.5 }, setupShort, {})).toBe(101);
  });

  it("is today's rule, the 1% buffer, unless told otherwise, and names itself", () => {
    expect(initialSnapshot(setupLong).failLevel).toBe(99);
    expect(FAILURE_RULE).toEqual({ kind: 'trigger', buffer: 0.01 });
    expect([FAILURE_RULE, { kind: 'atr', multiple: 1.5 }, { kind: 'base', fraction: 0.5 }, { kind: 'none' }].map((r) => failureRuleName(r as FailureRule))).toEqual(['trigger-1%', 'atr-1.5', 'base-0.5', 'none']);
  });

  it('trigger-1%: fails on the close below 99, not on 99.5', () => {
    expect(states(advance(under({ kind: 'trigger', buffer: 0.01 }), [bar(101), bar(99.5), bar(98.9)]).transitions)).toEqual(['triggered', 'failed']);
  });

  it('atr-1.5: holds through 98 and fails on the close below 97', () => {
    const { transitions } = advance(under({ kind: 'atr', multiple: 1.5 }), [bar(101), bar(98), bar(97.2), bar(96.9)]);
    expect(states(transitions)).toEqual(['triggered', 'failed']);
    expect(transitions[1]!.price).toBe(96.9);
  });

  it('base-0.5: fails only past the middle of the base (94 for a 12% base), a confirmed breakout too', () => {
    const { transitions } = advance(under({ kind: 'base', fraction: 0.5 }), [bar(101), bar(102), bar(103), bar(96, { low: 95.5 }), bar(95.5, { low: 95.2 }), bar(93.9, { low: 95.1 })]);
    expect(states(transitions)).toEqual(['triggered', 'confirmed', 'failed']);
  });

  it('none: never fails; a triggered trade ends at its stop or target1, as a confirmed one does', () => {
    const none = under({ kind: 'none' });
    expect(none.failLevel).toBeNull();
    const stopped = advance(none, [bar(101, { volumeRatio: 0.5 }), bar(96, { volumeRatio: 0.5 }), bar(95.2, { low: 94.8, volumeRatio: 0.5 })]);
    expect(states(stopped.transitions)).toEqual(['triggered', 'stopped']);
    expect(stopped.transitions[1]!.price).toBe(95);
    const hit = advance(under({ kind: 'none' }, setupShort), [bar(99, { volumeRatio: 0.5 }), bar(95, { volumeRatio: 0.5 }), bar(90.3, { low: 89.8, volumeRatio: 0.5 })]);
    expect(states(hit.transitions)).toEqual(['triggered', 'target_hit']);
  });

  it('reads a snapshot stored before failure rules existed (no failLevel) with the 1% buffer', () => {
    const { failLevel: _, ...old } = { ...long(), state: 'triggered' as const };
    expect(step(old, bar(98.9)).next.state).toBe('failed');
    expect(step(old, bar(99.2)).next.state).toBe('triggered');
  });

  it('makes only the transitions its table allows, under every rule, on random walks', () => {
    const rand = seededRandom(17);
    const rules: FailureRule[] = [FAILURE_RULE, { kind: 'atr', multiple: 1.5 }, { kind: 'base', fraction: 0.5 }, { kind: 'none' }];
    const seen = new Set<string>();
    for (let run = 0; run < 800; run++) {
      const rule = rules[run % 4]!;
      let price = 100;
      const bars = Array.from({ length: 60 }, () => {
        price *= 1 + (rand() - 0.48) * 0.07;
        return bar(price, { high: price * (1 + rand() * 0.02), low: price * (1 - rand() * 0.02), volumeRatio: rand() * 1.6 });
      });
      const table = rule.kind === 'none' ? NO_FAILURE_TRANSITIONS : TRANSITIONS;
      const setup = run % 2 ? setupLong : setupShort;
      for (const x of advance(under(rule, setup), bars).transitions) {
        expect(table[x.from]).toContain(x.to);
        seen.add(`${rule.kind} ${x.from}>${x.to}`);
      }
    }
    for (const move of ['trigger triggered>failed', 'atr triggered>failed', 'base triggered>failed', 'none triggered>stopped', 'none triggered>target_hit']) expect(seen).toContain(move);
    expect([...seen].some((m) => m.startsWith('none') && m.endsWith('>failed'))).toBe(false);
  });
});
