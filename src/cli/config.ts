/** @module cli/config — the configuration for a subcommand: a bad one exits 78 (EX_CONFIG) naming the variable. */
import { ConfigError, loadConfig, type Config } from '../config';

export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}
