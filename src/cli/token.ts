/**
 * @module cli/token
 * `breakline token mint --user U [--tier free|pro|enterprise] [--ttl 1h]`:
 * prints a session token signed with the local key (AUTH_LOCAL_KEY_FILE, else
 * in STATE_DIR; created on first use, mode 0600), for local use without an identity provider. Send it
 * as the `__session` cookie. Refused when a provider is configured: the
 * server would not trust the token.
 *
 * @example
 * curl -b "__session=$(breakline token mint --user alice --tier pro)" -X POST localhost:3000/api/keys -d '{"name":"bot"}' -H 'content-type: application/json'
 */
import { parseArgs } from 'node:util';
import { SESSION_COOKIE } from '../auth';
import { loadOrCreateLocalKey, MAX_LOCAL_TTL_SECONDS, mintLocalToken, parseTtl } from '../auth/local-key';
import { isTier, TIERS } from '../domain/tiers';
import { configOrExit, usageError } from './config';

const USAGE = `usage: breakline token mint --user USER_ID [--tier ${TIERS.join('|')}] [--ttl 1h]`;

export async function tokenCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'mint') return usage(action ? `unknown action '${action}'` : 'missing action');
  let values;
  try {
    ({ values } = parseArgs({ args: rest, options: { user: { type: 'string' }, tier: { type: 'string', default: 'free' }, ttl: { type: 'string', default: '1h' } }, strict: true }));
  } catch (error) {
    return usage((error as Error).message);
  }
  const { user, tier, ttl } = values;
  if (!user) return usage('--user is required');
  if (!isTier(tier)) return usage(`--tier must be one of ${TIERS.join(', ')}`);
  let ttlSeconds;
  try {
    ttlSeconds = parseTtl(ttl);
  } catch (error) {
    return usage(`--ttl: ${(error as Error).message}`);
  }
  if (ttlSeconds < 1 || ttlSeconds > MAX_LOCAL_TTL_SECONDS) return usage(`--ttl must be from 1s to ${MAX_LOCAL_TTL_SECONDS / 86400}d`);
  const config = configOrExit();
  if (config.auth.provider) {
    process.stderr.write(`An identity provider is configured (AUTH_ISSUER=${config.auth.provider.issuer}): the server trusts its tokens only, not locally minted ones.\n`);
    return 1;
  }
  const key = await loadOrCreateLocalKey(config.auth.localKeyFile);
  const { token, expiresAt } = await mintLocalToken(key, { userId: user, tier, ttlSeconds, tierClaim: config.auth.tierClaim });
  process.stdout.write(`${token}\n`);
  process.stderr.write(`session for ${user} (tier ${tier}) until ${expiresAt.toISOString()}; send it as the ${SESSION_COOKIE} cookie\n`);
  return 0;
}

const usage = (problem: string) => usageError(problem, USAGE);
