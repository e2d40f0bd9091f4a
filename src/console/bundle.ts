/**
 * @module console/bundle
 * Bundles the web console (src/console/app) with `Bun.build` into the files a
 * browser loads: the entry script (the frame and the signals page), each other
 * page and the chart (lightweight-charts, on the signal page only) as modules
 * of their own that the entry imports when they are first opened, the chunks
 * they share, one stylesheet and the icon. Names carry a content hash, so each
 * can be cached for good. Each file names the module it is (`module`) and the
 * files it imports statically (`imports`), so the page can have the browser
 * fetch a page's whole module graph at once (plugins/console: modulepreload)
 * instead of one import after another.
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
  /** The console module it is (`main`, a page of LAZY_MODULES, or `chart`); none for shared chunks and assets. */
  module?: string;
  /** Files it imports statically (names under /console/assets/), which the browser fetches before running it. */
  imports: string[];
  text: string;
}

const APP = join(import.meta.dir, 'app');

/**
 * Modules loaded when first needed, each bundled as an entry point of its own so its file is known by name (a page
 * from console/app/main's dynamic imports, the chart from the signal page's).
 */
export const LAZY_MODULES = { signal: 'pages/signal.tsx', record: 'pages/record.tsx', market: 'pages/market.tsx', account: 'pages/account.tsx', chart: 'parts/chart.ts' } as const;

/** Static imports in Bun's minified ESM output (`import{a}from"./chunk-x.js"`, `import"./chunk-x.js"`), never `import(…)`. */
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*"\.\/([\w.-]+\.js)"/g;

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** The console's files, built from src/console/app (throws with Bun's messages when the build fails). */
export async function bundleConsole(): Promise<ConsoleFile[]> {
  const result = await Bun.build({
    entrypoints: [join(APP, 'main.tsx'), ...Object.values(LAZY_MODULES).map((path) => join(APP, path))],
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
    const text = await output.text();
    // An entry point's file is named after its source (naming.entry): main-1a2b.js is console/app/main.tsx.
    const module = output.kind === 'entry-point' ? name.slice(0, name.lastIndexOf('-')) : undefined;
    const imports = extension === 'js' ? [...new Set([...text.matchAll(STATIC_IMPORT)].map((match) => match[1]!))] : [];
    // The page links the entry script and the stylesheet (all of the console's CSS is imported by the entry).
    files.push({ name, type, entry: module === 'main' || extension === 'css', module, imports, text });
  }
  files.push({ name: 'icon.svg', type: TYPES.svg!, entry: false, imports: [], text: await Bun.file(join(APP, 'icon.svg')).text() });
  return files;
}
