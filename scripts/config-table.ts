/**
 * @module config-table
 * Writes the README's configuration table from the schema (src/config/schema: each variable's
 * default and `doc`), between the markers below, so the table cannot drift from what the server
 * reads. test/config-table.test.ts fails while the README's table differs from this one.
 *
 *   bun run scripts/config-table.ts           # prints the table
 *   bun run scripts/config-table.ts --write   # rewrites it in README.md (after adding a variable, or a merge)
 *   bun run scripts/config-table.ts --check   # exits 1 when README.md is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Variable } from '../src/config/fields';
import { VARIABLES } from '../src/config';

export const BEGIN = '<!-- config table: begin (written by `bun run scripts/config-table.ts --write` from src/config/schema.ts; do not edit by hand) -->';
export const END = '<!-- config table: end -->';
export const README = join(import.meta.dir, '..', 'README.md');

/** One Markdown row: the variable, its default as written (or as computed, or unset), its meaning. */
function row({ name, default: fallback, shownDefault, doc }: Variable): string {
  const shown = shownDefault ?? (fallback === undefined ? 'unset' : `\`${fallback}\``);
  return `| \`${name}\` | ${shown} | ${doc.replaceAll('|', '\\|')} |`;
}

/** The table of every variable, in the schema's order. */
export function configTable(variables: readonly Variable[] = VARIABLES): string {
  return ['| variable | default | meaning |', '|---|---|---|', ...variables.map(row)].join('\n');
}

/** `text` with the table between its markers replaced; throws when the markers are missing. */
export function withTable(text: string, table = configTable()): string {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END, begin);
  if (begin < 0 || end < 0) throw new Error(`the README has no config table markers (${BEGIN} … ${END})`);
  return `${text.slice(0, begin + BEGIN.length)}\n${table}\n${text.slice(end)}`;
}

if (import.meta.main) {
  const mode = process.argv[2];
  if (mode === '--write' || mode === '--check') {
    const text = readFileSync(README, 'utf8');
    const next = withTable(text);
    if (mode === '--check') {
      if (next !== text) {
        console.error('README.md: the configuration table differs from src/config/schema.ts; run `bun run scripts/config-table.ts --write`');
        process.exit(1);
      }
    } else if (next !== text) {
      writeFileSync(README, next);
      console.log(`wrote ${VARIABLES.length} variables into ${README}`);
    }
  } else console.log(configTable());
}
