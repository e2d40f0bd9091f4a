/** bench/index picks bench names out of its command line; flags and their values pass through to the benches. */
import { describe, expect, it } from 'bun:test';
import { benchNames } from '../../bench/args';

const BENCHES = ['ledger', 'durability', 'metrics', 'boot', 'http'];

describe('benchNames', () => {
  it('names benches around boolean flags (what CI runs)', () => {
    expect(benchNames(['--smoke', 'ledger', 'durability'], BENCHES)).toEqual({ named: ['ledger', 'durability'], unknown: [] });
    expect(benchNames(['boot', '--no-replay', 'http'], BENCHES)).toEqual({ named: ['boot', 'http'], unknown: [] });
    expect(benchNames([], BENCHES)).toEqual({ named: [], unknown: [] });
  });

  it("takes a flag's value as the flag's, not as a bench name", () => {
    expect(benchNames(['metrics', '--tree', 'main=/tmp/x'], BENCHES)).toEqual({ named: ['metrics'], unknown: [] });
    expect(benchNames(['boot', '--tree', 'main=/tmp/a', '--tree', 'branch=.', '--runs', '5', 'http'], BENCHES)).toEqual({ named: ['boot', 'http'], unknown: [] });
    expect(benchNames(['--binary', './breakline', 'boot', '--sizes=1,2'], BENCHES)).toEqual({ named: ['boot'], unknown: [] });
  });

  it('reports a misspelt name, even after a flag (a boolean one, or one whose value it cannot be)', () => {
    expect(benchNames(['--smoke', 'lejger'], BENCHES)).toEqual({ named: [], unknown: ['lejger'] });
    expect(benchNames(['--runs', '5', 'metricz'], BENCHES)).toEqual({ named: [], unknown: ['metricz'] });
    expect(benchNames(['--tree', 'ledger'], BENCHES)).toEqual({ named: ['ledger'], unknown: [] });
  });
});
