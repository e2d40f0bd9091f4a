/**
 * `npm run build`: one self-contained executable, dist/breakline.
 *
 * The worker pool needs two modules inside the executable besides the main
 * one: our worker module (workers/index.ts) and piscina's own worker bootstrap
 * (piscina/dist/worker.js), which piscina starts every thread with. Both are
 * extra entrypoints, so Bun embeds them at `/$bunfs/root/<path>`. Piscina
 * looks its bootstrap up as `resolve(__dirname, 'worker.js')`, and the bundler
 * freezes `__dirname` to the build machine's node_modules path; the plugin below
 * points that lookup at the embedded copy, so the executable runs scans from
 * any directory without node_modules beside it. `--outfile PATH` builds
 * elsewhere (the standalone test builds into a temporary directory). The
 * synthetic market's daily-path worker (src/providers/synthetic/daily-worker.ts)
 * is a third extra entrypoint, started with Bun's own Worker.
 *
 * The web console is bundled first (src/console/bundle) and its files are
 * embedded as the module src/console/files.ts becomes in the executable, so the
 * executable serves them without bundling and without the source tree.
 */
import type { BunPlugin } from 'bun';
import { dirname, join, relative, resolve } from 'node:path';
import { bundleConsole } from '../src/console/bundle';

const ROOT = resolve(import.meta.dir, '..');
const at = process.argv.indexOf('--outfile');
const OUTFILE = at >= 0 ? resolve(process.argv[at + 1]!) : resolve(ROOT, 'dist/breakline');
const PISCINA_WORKER = join(dirname(Bun.resolveSync('piscina', ROOT)), 'worker.js');
const BUNFS_ROOT = '/$bunfs/root';
/** The executable's path to an embedded entrypoint: its path under the build root. */
const embedded = (path: string) => `${BUNFS_ROOT}/${relative(ROOT, path).split('\\').join('/')}`;

const LOOKUP = "(0, node_path_1.resolve)(__dirname, 'worker.js')";

const embeddedPiscinaWorker: BunPlugin = {
  name: 'embedded piscina worker',
  setup(build) {
    build.onLoad({ filter: /piscina[\\/]dist[\\/]index\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      if (!source.includes(LOOKUP)) throw new Error(`${path}: piscina no longer looks its worker up as ${LOOKUP}; update scripts/build.ts`);
      return { contents: source.replace(LOOKUP, JSON.stringify(embedded(PISCINA_WORKER))), loader: 'js' };
    });
  },
};

const consoleFiles = await bundleConsole();

const embeddedConsole: BunPlugin = {
  name: 'embedded console',
  setup(build) {
    build.onLoad({ filter: /src[\\/]console[\\/]files\.ts$/ }, () => ({
      contents: [
        `export const CONSOLE_FILES_ORIGIN = 'embedded';`,
        `const files = ${JSON.stringify(consoleFiles)};`,
        `export const loadConsoleFiles = async () => files;`,
      ].join('\n'),
      loader: 'ts',
    }));
  },
};

const result = await Bun.build({
  entrypoints: [resolve(ROOT, 'src/index.ts'), resolve(ROOT, 'workers/index.ts'), resolve(ROOT, 'src/providers/synthetic/daily-worker.ts'), PISCINA_WORKER],
  root: ROOT,
  target: 'bun',
  compile: { outfile: OUTFILE },
  plugins: [embeddedPiscinaWorker, embeddedConsole],
});
if (!result.success) {
  for (const message of result.logs) console.error(message);
  process.exit(1);
}
console.log(`${relative(process.cwd(), OUTFILE)} (${(Bun.file(OUTFILE).size / 1e6).toFixed(1)} MB; console: ${consoleFiles.length} files, ${(consoleFiles.reduce((n, f) => n + f.text.length, 0) / 1e3).toFixed(0)} KB)`);
