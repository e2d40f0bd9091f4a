/**
 * @module cli
 * The executable's subcommands, one file each, looked up by name. `breakline`
 * alone serves. A command is a function of its arguments (after the command
 * name) that resolves to an exit code, or never returns (the server).
 */
import { healthcheck } from './healthcheck';
import { replayCommand } from './replay';
import { serve } from './serve';
import { verifyLedgerCommand } from './verify-ledger';

export interface Command {
  /** One line for the help text. */
  summary: string;
  run(args: string[]): Promise<number | void>;
}

export const COMMANDS: Record<string, Command> = {
  serve: { summary: 'run the HTTP service (the default)', run: serve },
  healthcheck: { summary: "ask a running server's /api/health on PORT; exit 0 when healthy", run: healthcheck },
  replay: { summary: 'replay history point in time into the replay ledger (--from --to --symbols|--universe --timeframe); resumable', run: replayCommand },
  'verify-ledger': { summary: 'recompute the ledger hash chain in the configured database; exit 0 when it holds', run: verifyLedgerCommand },
};

export async function main(argv: string[]): Promise<void> {
  const [name = 'serve', ...args] = argv;
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    process.exit(64); // EX_USAGE
  }
  const code = await command.run(args);
  if (typeof code === 'number') process.exit(code);
}
