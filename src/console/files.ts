/**
 * @module console/files
 * Where the server gets the console's files. From source they are bundled on
 * first use (console/bundle); `npm run build` replaces this module in the
 * executable with one that returns the files it bundled at build time
 * (scripts/build.ts), so the executable never bundles and needs no source.
 */
import { bundleConsole, type ConsoleFile } from './bundle';

export type { ConsoleFile };

/** Where the files came from: `bundled` now from source, or `embedded` at build time. */
export const CONSOLE_FILES_ORIGIN: 'bundled' | 'embedded' = 'bundled';

export const loadConsoleFiles = (): Promise<ConsoleFile[]> => bundleConsole();
