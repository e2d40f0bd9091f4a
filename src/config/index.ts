/**
 * @module config
 * Every environment variable Breakline reads (declared once in config/schema), parsed once with zod
 * into the typed `Config`, which is the schema's output type. Nothing else reads `process.env`.
 * Defaults run fully offline: PGlite under `STATE_DIR`, the synthetic market, the in-process event
 * bus and rate limiter. Here are only the rules between domains: a provider's keys, `auto` values,
 * paths under `STATE_DIR`.
 *
 * @example
 * const config = loadConfig({ PORT: '8080' }); // => { port: 8080, ... }
 */
import { join } from 'node:path';
import { z } from 'zod';
import { variablesOf, type Variable } from './fields';
import { configSchema } from './schema';

export { API_VERSIONS, SHUTDOWN_AFTER_DRAIN_MS, type ApiVersion, type ProxyTrust } from './schema';
export type { AiConfig } from './ai';
export type { ProviderKeys } from './auth';

/** Every variable, with the path of its value in `Config` (the help text lists them, the README's table shows them). */
export const VARIABLES: readonly Variable[] = variablesOf(configSchema);
/** Every environment variable the configuration reads. */
export const CONFIG_VARIABLES = VARIABLES.map((variable) => variable.name);

/** A problem with `path` (under the configuration) is reported under the variable there; `path` is relative to the root. */
const issue = (ctx: z.RefinementCtx, path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });

/** The schema with the rules between its domains. */
const withRules = configSchema.transform((c, ctx) => {
  if (c.marketDataProvider === 'csv' && !c.csvDir) issue(ctx, ['csvDir'], 'required when MARKET_DATA_PROVIDER=csv');
  const vendorKey = (path: string[], present: string | undefined) => {
    if (!present) issue(ctx, path, `required when MARKET_DATA_PROVIDER=${c.marketDataProvider} (the ${c.marketDataProvider} provider's key)`);
    return present ?? '';
  };
  const alpaca = c.marketDataProvider === 'alpaca' ? { ...c.alpaca, keyId: vendorKey(['alpaca', 'keyId'], c.alpaca.keyId), secretKey: vendorKey(['alpaca', 'secretKey'], c.alpaca.secretKey) } : null;
  const polygon = c.marketDataProvider === 'polygon' ? { ...c.polygon, apiKey: vendorKey(['polygon', 'apiKey'], c.polygon.apiKey) } : null;
  return {
    ...c,
    alpaca,
    polygon,
    /** Run the boot replay (jobs/replay/boot) in the background after the server starts. */
    replayOnBoot: c.replayOnBoot === 'auto' ? c.marketDataProvider === 'synthetic' : c.replayOnBoot === 'on',
    auth: { ...c.auth, localKeyFile: c.auth.localKeyFile ?? join(c.stateDir, 'auth', 'session-key.json') },
  };
});

/** The parsed configuration every service receives. */
export type Config = z.output<typeof withRules>;
export type AuthConfig = Config['auth'];
export type IdentityProviderConfig = NonNullable<AuthConfig['provider']>;
export type AccountConfig = Config['account'];

/** A configuration problem, naming every bad variable. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** The variable an issue's path points into (the deepest one: a list's item points into its variable). */
function variableAt(path: readonly PropertyKey[]): Variable | undefined {
  return VARIABLES.find((variable) => variable.path.length <= path.length && variable.path.every((key, i) => key === path[i]));
}

/** The nested input of the schema: each variable's text from `env` (blank counts as unset), else its default. */
function inputFrom(env: Record<string, string | undefined>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const { name, path, default: fallback } of VARIABLES) {
    const value = env[name] === '' || env[name] === undefined ? fallback : env[name];
    let node = input;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path.at(-1)!] = value;
  }
  return input;
}

/**
 * Parses the environment (blank values count as unset).
 * @throws {ConfigError} naming each variable that is invalid.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = withRules.safeParse(inputFrom(env));
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((problem) => {
      const variable = variableAt(problem.path);
      return variable ? `${variable.name}: ${problem.message}` : problem.message;
    }),
  );
}

/** Where the embedded database lives under `STATE_DIR`. */
export function pgliteDataDir(config: Config): string {
  return join(config.stateDir, 'pgdata');
}
