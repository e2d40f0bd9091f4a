/**
 * @module bench/args — which benchmarks a command line names (bench/index).
 * Each bench reads its own flags from process.argv; here only the names are
 * picked out: a token that is no flag, and not the value of the flag before
 * it. `--name=value` is one token; a flag of BOOLEAN_FLAGS takes no value;
 * any other flag takes the token after it as its value (`--tree
 * main=/tmp/x`, `--binary ./breakline`, `--runs 5`) unless that token is a
 * bench's name (`--smoke ledger` names `ledger`).
 *
 * @example
 * benchNames(['metrics', '--tree', 'main=/tmp/x'], ['metrics', 'ledger']); // { named: ['metrics'], unknown: [] }
 */

/** The flags the benches read that take no value. */
export const BOOLEAN_FLAGS: ReadonlySet<string> = new Set(['--smoke', '--no-replay']);

/** The bench names `args` holds, in order, and the tokens that are neither a name nor a flag's value. */
export function benchNames(args: readonly string[], benches: readonly string[]): { named: string[]; unknown: string[] } {
  const named: string[] = [];
  const unknown: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const next = args[i + 1];
      const takesValue = !arg.includes('=') && !BOOLEAN_FLAGS.has(arg) && next !== undefined && !next.startsWith('--') && !benches.includes(next);
      if (takesValue) i++;
    } else (benches.includes(arg) ? named : unknown).push(arg);
  }
  return { named, unknown };
}
