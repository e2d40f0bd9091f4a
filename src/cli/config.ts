/** @module cli/config — the configuration for a subcommand (a bad one exits 78, EX_CONFIG, naming the variable) and the usage error (64, EX_USAGE). */
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

/** Says what is wrong with the arguments and how to call the command; answers exit code 64 (EX_USAGE). */
export function usageError(problem: string, usage: string): number {
  process.stderr.write(`${problem}\n${usage}\n`);
  return 64;
}
