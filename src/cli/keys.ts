/**
 * @module cli/keys
 * The operator's API key commands, on the configured database:
 * - `breakline keys create --user U --name N [--tier free|pro|enterprise]`:
 *   prints the key once on stdout (only its hash is stored);
 * - `breakline keys list --user U`: the user's keys, newest first;
 * - `breakline keys revoke KEY_ID`: refused from the next request on.
 */
import { parseArgs } from 'node:util';
import { pgliteDataDir } from '../config';
import { ApiKeys, MAX_KEY_NAME_LENGTH, MAX_USER_ID_LENGTH, type ApiKeyInfo } from '../auth';
import { ApiKeysRepository } from '../db/repositories/api-keys';
import { openDatabase } from '../db/client';
import { isTier, TIERS } from '../domain/tiers';
import { createLogger } from '../log';
import { configOrExit } from './config';

const USAGE = `usage: breakline keys create --user USER_ID --name NAME [--tier ${TIERS.join('|')}]
       breakline keys list --user USER_ID
       breakline keys revoke KEY_ID`;

type Action = (keys: ApiKeys, args: string[]) => Promise<number>;

const ACTIONS: Record<string, Action> = {
  async create(keys, args) {
    const { values } = parseArgs({ args, options: { user: { type: 'string' }, name: { type: 'string' }, tier: { type: 'string', default: 'free' } }, strict: true });
    const { user, name, tier } = values;
    if (!user || user.length > MAX_USER_ID_LENGTH) return usage(`--user is required (1–${MAX_USER_ID_LENGTH} characters)`);
    if (!name || name.length > MAX_KEY_NAME_LENGTH) return usage(`--name is required (1–${MAX_KEY_NAME_LENGTH} characters)`);
    if (!isTier(tier)) return usage(`--tier must be one of ${TIERS.join(', ')}`);
    const { key, info } = await keys.create({ userId: user, name, tier });
    process.stdout.write(`${key}\n`);
    process.stderr.write(`${info.id} for ${user} (tier ${tier}, '${name}'): store the key now, it is not shown again\n`);
    return 0;
  },
  async list(keys, args) {
    const { values } = parseArgs({ args, options: { user: { type: 'string' } }, strict: true });
    if (!values.user) return usage('--user is required');
    const rows = await keys.list(values.user);
    process.stdout.write(`${['id', 'prefix', 'tier', 'name', 'created', 'last used', 'revoked'].join('\t')}\n`);
    for (const row of rows) process.stdout.write(`${line(row)}\n`);
    return 0;
  },
  async revoke(keys, args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, strict: true });
    const [id] = positionals;
    if (!id || positionals.length !== 1) return usage('give one key id (key_…)');
    const revoked = await keys.revoke(id, null);
    if (!revoked) {
      process.stderr.write(`no API key ${id}\n`);
      return 1;
    }
    process.stdout.write(`${line(revoked)}\n`);
    return 0;
  },
};

export async function keysCommand(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  const action = name ? ACTIONS[name] : undefined;
  if (!action) return usage(name ? `unknown action '${name}'` : 'missing action');
  const config = configOrExit();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config) });
  const keys = new ApiKeys(new ApiKeysRepository(database.db), { log: createLogger(config.logLevel), flushMs: 0 });
  try {
    return await action(keys, rest);
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) return usage(error.message);
    throw error;
  } finally {
    await keys.close();
    await database.close();
  }
}

function line(row: ApiKeyInfo): string {
  const at = (date: Date | null) => date?.toISOString() ?? '-';
  return [row.id, `bk_${row.prefix}…`, row.tier, row.name, at(row.createdAt), at(row.lastUsedAt), at(row.revokedAt)].join('\t');
}

function usage(problem: string): number {
  process.stderr.write(`${problem}\n${USAGE}\n`);
  return 64; // EX_USAGE
}
