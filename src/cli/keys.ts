/**
 * @module cli/keys
 * The operator's API key commands, on the configured database:
 * - `breakline keys create --user U --name N [--tier free|pro|enterprise]
 *   [--scope read --scope write …]`: prints the key once on stdout (only its
 *   hash is stored); scopes default to read, within the tier's (domain/scopes);
 * - `breakline keys list --user U`: the user's keys, newest first;
 * - `breakline keys revoke KEY_ID`: refused from the next request on;
 * - `breakline keys tier --user U --tier free|pro|enterprise`: states the
 *   user's current tier (auth/user-tiers), which caps every key of theirs
 *   from the next request on (a downgrade for a user who only uses keys).
 * Arguments are checked before the database is opened; on the embedded
 * database, not while a server holds it (cli/state-lock). The operator's keys
 * are not held to the per-tier cap of active keys.
 */
import { parseArgs } from 'node:util';
import { pgliteDataDir } from '../config';
import { ApiKeys, MAX_KEY_NAME_LENGTH, MAX_USER_ID_LENGTH, UserTiers, type ApiKeyInfo } from '../auth';
import { ApiKeysRepository } from '../db/repositories/api-keys';
import { UserTiersRepository } from '../db/repositories/user-tiers';
import { openDatabase } from '../db/client';
import { isTier, tierAtLeast, TIERS } from '../domain/tiers';
import { DEFAULT_KEY_SCOPES, isScope, SCOPES, scopesAllowed, scopesBeyond } from '../domain/scopes';
import { createLogger } from '../log';
import { configOrExit, usageError } from './config';
import { holdEmbeddedDatabase, refusalWhileHeld } from './state-lock';

const USAGE = `usage: breakline keys create --user USER_ID --name NAME [--tier ${TIERS.join('|')}] [--scope ${SCOPES.join('|')} …]
       breakline keys list --user USER_ID
       breakline keys revoke KEY_ID
       breakline keys tier --user USER_ID --tier ${TIERS.join('|')}`;

/** An action: its arguments checked (a usage problem as a string), then run on the keys and the users' tiers. */
type Action = (args: string[]) => string | ((deps: { keys: ApiKeys; tiers: UserTiers }) => Promise<number>);

const ACTIONS: Record<string, Action> = {
  create(args) {
    const { values } = parseArgs({ args, options: { user: { type: 'string' }, name: { type: 'string' }, tier: { type: 'string', default: 'free' }, scope: { type: 'string', multiple: true } }, strict: true });
    const { user, name, tier } = values;
    const scopes = [...new Set(values.scope?.flatMap((s) => s.split(',')) ?? DEFAULT_KEY_SCOPES)];
    if (!user || user.length > MAX_USER_ID_LENGTH) return `--user is required (1–${MAX_USER_ID_LENGTH} characters)`;
    if (!name || name.length > MAX_KEY_NAME_LENGTH) return `--name is required (1–${MAX_KEY_NAME_LENGTH} characters)`;
    if (!isTier(tier)) return `--tier must be one of ${TIERS.join(', ')}`;
    if (!scopes.every(isScope)) return `--scope must be one of ${SCOPES.join(', ')}`;
    const beyond = scopesBeyond(scopes, tier);
    if (beyond.length > 0) return `a ${tier} key's scopes are at most ${scopesAllowed(tier).join(', ')} (asked for ${beyond.join(', ')})`;
    return async ({ keys, tiers }) => {
      const { key, info } = await keys.create({ userId: user, name, tier, scopes });
      process.stdout.write(`${key}\n`);
      process.stderr.write(`${info.id} for ${user} (tier ${tier}, scopes ${info.scopes.join(',')}, '${name}'): store the key now, it is not shown again\n`);
      const owner = await tiers.of(user);
      if (owner && !tierAtLeast(owner.tier, tier)) process.stderr.write(`note: ${user} is ${owner.tier} (stated ${owner.statedAt.toISOString()}): the key acts as ${owner.tier} until 'breakline keys tier' states more\n`);
      return 0;
    };
  },
  list(args) {
    const { values } = parseArgs({ args, options: { user: { type: 'string' } }, strict: true });
    const { user } = values;
    if (!user) return '--user is required';
    return async ({ keys }) => {
      process.stdout.write(`${['id', 'prefix', 'tier', 'name', 'created', 'last used', 'revoked', 'scopes'].join('\t')}\n`);
      for (const row of await keys.list(user)) process.stdout.write(`${line(row)}\n`);
      return 0;
    };
  },
  revoke(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, strict: true });
    const [id] = positionals;
    if (!id || positionals.length !== 1) return 'give one key id (key_…)';
    return async ({ keys }) => {
      const revoked = await keys.revoke(id, null);
      if (!revoked) {
        process.stderr.write(`no API key ${id}\n`);
        return 1;
      }
      process.stdout.write(`${line(revoked)}\n`);
      return 0;
    };
  },
  tier(args) {
    const { values } = parseArgs({ args, options: { user: { type: 'string' }, tier: { type: 'string' } }, strict: true });
    const { user, tier } = values;
    if (!user || user.length > MAX_USER_ID_LENGTH) return `--user is required (1–${MAX_USER_ID_LENGTH} characters)`;
    if (!isTier(tier)) return `--tier must be one of ${TIERS.join(', ')}`;
    return async ({ tiers }) => {
      await tiers.state(user, tier);
      process.stdout.write(`${user}\t${tier}\n`);
      return 0;
    };
  },
};

export async function keysCommand(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  const action = name ? ACTIONS[name] : undefined;
  if (!action) return usage(name ? `unknown action '${name}'` : 'missing action');
  let run;
  try {
    run = action(rest);
  } catch (error) {
    return usage((error as Error).message); // parseArgs: unknown option, missing value
  }
  if (typeof run === 'string') return usage(run);
  const config = configOrExit();
  const lock = await holdEmbeddedDatabase(config, `breakline keys ${name}`);
  if (!lock.ok) {
    process.stderr.write(refusalWhileHeld(lock.holder, config, 'open the embedded database'));
    return 75; // EX_TEMPFAIL
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config) });
  const log = createLogger(config.logLevel);
  const keys = new ApiKeys(new ApiKeysRepository(database.db), { log, flushMs: 0 });
  try {
    return await run({ keys, tiers: new UserTiers(new UserTiersRepository(database.db), log) });
  } finally {
    await keys.close();
    await database.close();
    lock.release();
  }
}

function line(row: ApiKeyInfo): string {
  const at = (date: Date | null) => date?.toISOString() ?? '-';
  return [row.id, `bk_${row.prefix}…`, row.tier, row.name, at(row.createdAt), at(row.lastUsedAt), at(row.revokedAt), row.scopes.join(',')].join('\t');
}

const usage = (problem: string) => usageError(problem, USAGE);
