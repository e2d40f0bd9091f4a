/** The README's configuration table is the schema's: written by scripts/config-table.ts, checked here. */
import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { variable, variablesOf } from '../src/config/fields';
import { CONFIG_VARIABLES, loadConfig, VARIABLES } from '../src/config';
import { BEGIN, configTable, END, README, withTable } from '../scripts/config-table';

describe('the configuration table', () => {
  it('in README.md is the one the schema writes (run `bun run scripts/config-table.ts --write` when this fails)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withTable(readme)).toBe(readme);
  });

  it('has one row per variable the configuration reads, each with a meaning', () => {
    const rows = configTable().split('\n').slice(2);
    expect(rows).toHaveLength(CONFIG_VARIABLES.length);
    expect(new Set(CONFIG_VARIABLES).size).toBe(CONFIG_VARIABLES.length);
    for (const [i, name] of CONFIG_VARIABLES.entries()) expect(rows[i]).toStartWith(`| \`${name}\` | `);
    for (const { name, doc } of VARIABLES) expect(doc.trim().length, name).toBeGreaterThan(3);
  });

  it('shows each default as the environment would write it, and that text parses to what an unset variable gives', () => {
    const defaults = loadConfig({});
    for (const { name, default: text } of VARIABLES.filter((v) => v.default !== undefined)) {
      expect(loadConfig({ [name]: text })).toEqual(defaults);
    }
    expect(configTable()).toContain('| `PORT` | `3000` | HTTP port |');
    expect(configTable()).toContain('| `DATABASE_URL` | unset |');
    expect(configTable()).toContain("| `POOL_SIZE` | cores |");
  });

  it('escapes a pipe inside a meaning, so the row keeps its three cells', () => {
    const schema = z.object({ mode: variable('MODE', z.string(), { default: 'a', doc: '`a` | `b`' }) });
    expect(configTable(variablesOf(schema))).toEndWith('| `MODE` | `a` | `a` \\| `b` |');
  });

  it('is written between its markers only, and refuses a README without them', () => {
    expect(withTable(`intro\n${BEGIN}\nold rows\n${END}\noutro`, 'NEW')).toBe(`intro\n${BEGIN}\nNEW\n${END}\noutro`);
    expect(() => withTable('no markers here', 'NEW')).toThrow(/markers/);
  });
});

describe('a variable', () => {
  it('is read from the environment at the path the schema nests it under', () => {
    for (const { name, path } of VARIABLES.filter((v) => v.path[0] === 'stream')) {
      expect(path).toHaveLength(2);
      expect(name).toStartWith('SSE_');
    }
    expect(VARIABLES.find((v) => v.name === 'GRAPHQL_SSE_MAX_RESERVATIONS')?.path).toEqual(['graphql', 'sse', 'maxReservations']);
    expect(loadConfig({ GRAPHQL_SSE_MAX_RESERVATIONS: '7' }).graphql.sse.maxReservations).toBe(7);
  });

  it('that is invalid is named by its variable, wherever it is nested', () => {
    expect(() => loadConfig({ GRAPHQL_SSE_MAX_RESERVATIONS: '0' })).toThrow('GRAPHQL_SSE_MAX_RESERVATIONS: ');
    expect(() => loadConfig({ AI_BREAKER_FAILURES: 'many' })).toThrow('AI_BREAKER_FAILURES: ');
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example, nope' })).toThrow('CORS_ORIGINS: ');
  });
});
