/**
 * @module cli
 * The executable's subcommands, one file each, looked up by name. `breakline`
 * alone serves. A command is a function of its arguments (after the command
 * name) that resolves to an exit code, or never returns (the server); each is
 * loaded only when it runs, so `--help` and `--version` answer at once.
 * `help`, `-h`, `--help` (also after a command) print the help text,
 * `--version`/`-v` the version.
 */
import { CONFIG_VARIABLES } from '../config';
import pkg from '../../package.json' with { type: 'json' };

export interface Command {
  /** One line for the help text. */
  summary: string;
  run(args: string[]): Promise<number | void>;
  /** The command's own help (`breakline COMMAND --help`); the general help otherwise. */
  help?: () => Promise<string>;
}

export const COMMANDS: Record<string, Command> = {
  serve: { summary: 'run the HTTP service (the default): live at /livez at once, ready at /readyz after the warm-up', run: () => import('./serve').then((m) => m.serve()) },
  healthcheck: { summary: "ask a running server's /readyz on PORT; exit 0 when it is ready (the Docker HEALTHCHECK)", run: () => import('./healthcheck').then((m) => m.healthcheck()) },
  replay: {
    summary: 'replay history point in time into the replay ledger (--from --to --symbols|--universe --timeframe); resumable',
    run: (args) => import('./replay').then((m) => m.replayCommand(args)),
  },
  'verify-ledger': {
    summary: 'recompute the ledger hash chain in the configured database; exit 0 when it holds (refuses while a server uses the embedded database)',
    run: () => import('./verify-ledger').then((m) => m.verifyLedgerCommand()),
  },
  token: { summary: 'token mint --user U [--tier pro] [--ttl 1h]: a local session token (only while no identity provider is configured)', run: (args) => import('./token').then((m) => m.tokenCommand(args)) },
  capacity: {
    summary: 'measure a deployment (--url, or a local instance) under a load profile ramped to its knee; plan instances for --target',
    help: () => import('./capacity').then((m) => m.HELP),
    run: (args) => import('./capacity').then((m) => m.capacityCommand(args)),
  },
  keys: { summary: 'keys create --user U --name N [--tier pro] | list --user U | revoke KEY_ID | tier --user U --tier free: API keys and users\' tiers in the configured database', run: (args) => import('./keys').then((m) => m.keysCommand(args)) },
};

const HELP_FLAGS = new Set(['-h', '--help', 'help']);
const VERSION_FLAGS = new Set(['-v', '--version', 'version']);

/** The help text: usage, every command with its summary, the options and the configuration variables. */
export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length), 'help'.length) + 2;
  const commands = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}${summary}`);
  const variables: string[] = [];
  let line = ' ';
  for (const name of CONFIG_VARIABLES) {
    if (line.length + name.length > 78) (variables.push(line), (line = ' '));
    line += ` ${name}`;
  }
  variables.push(line);
  return [
    `breakline ${pkg.version} — ${pkg.description}`,
    '',
    'Usage: breakline [command] [options]',
    '',
    'Commands:',
    ...commands,
    `  ${'help'.padEnd(width)}print this help`,
    '',
    'Options:',
    `  ${'-h, --help'.padEnd(width + 4)}print this help (also after a command)`,
    `  ${'-v, --version'.padEnd(width + 4)}print the version`,
    '',
    'Configuration is read from environment variables (defaults run offline:',
    'embedded PostgreSQL in STATE_DIR, synthetic market, on http://127.0.0.1:3000);',
    'each is described in the README:',
    ...variables,
    '',
    'Exit codes: 0 ok, 1 check failed, 64 bad usage, 75 embedded database in use, 78 bad configuration.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<void> {
  const [first = 'serve', ...rest] = argv;
  const own = COMMANDS[first]?.help;
  if (own && rest.some((arg) => HELP_FLAGS.has(arg) && arg !== 'help')) {
    process.stdout.write(`${await own()}\n`);
    process.exit(0);
  }
  if (HELP_FLAGS.has(first) || rest.some((arg) => HELP_FLAGS.has(arg) && arg !== 'help')) {
    process.stdout.write(`${helpText()}\n`);
    process.exit(0);
  }
  if (VERSION_FLAGS.has(first)) {
    process.stdout.write(`breakline ${pkg.version}\n`);
    process.exit(0);
  }
  const command = COMMANDS[first];
  if (!command) {
    process.stderr.write(`breakline: unknown command '${first}'\n\n${helpText()}\n`);
    process.exit(64); // EX_USAGE
  }
  const code = await command.run(rest);
  if (typeof code === 'number') process.exit(code);
}
