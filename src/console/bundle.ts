/**
 * @module console/bundle
 * Bundles the web console (src/console/app) with `Bun.build` into the files a
 * browser loads: one entry script, the chunks it imports lazily (the chart
 * library is one: the signals list does not wait for it), one stylesheet and
 * the icon. Names carry a content hash, so each can be cached for good.
 *
 * Run lazily by the server from source (on the first request for the console)
 * and once by `npm run build`, which embeds the result in the executable
 * (scripts/build.ts swaps console/files for the prebuilt files).
 *
 * @example
 * const files = await bundleConsole(); // [{ name: 'main-1a2b3c.js', type: 'text/javascript; charset=utf-8', text: '…' }, …]
 */
import { join } from 'node:path';

/** One file of the console as a browser loads it. */
export interface ConsoleFile {
  /** File name under /console/assets/ (content-hashed, except the icon). */
  name: string;
  /** Its Content-Type. */
  type: string;
  /** Whether the page loads it first (the entry script or its stylesheet). */
  entry: boolean;
  text: string;
}

const APP = join(import.meta.dir, 'app');

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** The console's files, built from src/console/app (throws with Bun's messages when the build fails). */
export async function bundleConsole(): Promise<ConsoleFile[]> {
  const result = await Bun.build({
    entrypoints: [join(APP, 'main.tsx')],
    target: 'browser',
    format: 'esm',
    splitting: true,
    minify: true,
    naming: { entry: '[name]-[hash].[ext]', chunk: 'chunk-[hash].[ext]', asset: '[name]-[hash].[ext]' },
    define: { 'process.env.NODE_ENV': '"production"' },
    throw: false,
  });
  if (!result.success) throw new Error(`console bundle failed: ${result.logs.map(String).join('\n')}`);
  const files: ConsoleFile[] = [];
  for (const output of result.outputs) {
    const name = output.path.replace(/^\.\//, '');
    const extension = name.slice(name.lastIndexOf('.') + 1);
    const type = TYPES[extension];
    if (!type) continue; // source maps and the like are not served
    // The page links the entry script and the stylesheet (all of the console's CSS is imported by the entry).
    files.push({ name, type, entry: output.kind === 'entry-point' || extension === 'css', text: await output.text() });
  }
  files.push({ name: 'icon.svg', type: TYPES.svg!, entry: false, text: await Bun.file(join(APP, 'icon.svg')).text() });
  return files;
}
