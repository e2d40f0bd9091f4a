/**
 * @module cli/capacity/self
 * The command that runs this executable again: the processes a capacity run
 * starts (SSE clients, the local instance, a bare handler) are the same
 * program in another role. Inside the executable `npm run build` makes
 * (modules under `/$bunfs/`, see src/pool) that is the executable itself;
 * from source, Bun and src/index.ts.
 */

/** Argument vector prefix that runs `breakline` (append the subcommand and its arguments). */
export function selfCommand(): string[] {
  return import.meta.url.includes('/$bunfs/') ? [process.execPath] : [process.execPath, new URL('../../index.ts', import.meta.url).pathname];
}
