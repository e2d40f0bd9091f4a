/**
 * @module bench/process-share-step
 * One step of bench/process-share: builds the server up to `BENCH_STEP`
 * (empty, imports, database, services, pool, warm, app) the way cli/serve
 * does, prints `step ready`, and stays up (the preloaded floor keeps the
 * process alive) until SIGTERM.
 */
import { configOrExit } from '../src/cli/config';
import { pgliteDataDir } from '../src/config';
import { createLogger } from '../src/log';

const step = process.env.BENCH_STEP ?? 'empty';
const order = ['empty', 'imports', 'database', 'services', 'pool', 'warm', 'compose', 'app'];
const reached = (s: string) => order.indexOf(step) >= order.indexOf(s);
let close: (() => Promise<void>) | undefined;

if (reached('imports')) {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  const [{ createApp }, { createServices }, { precompileHeavyRoutes }, { prepareGraphQL }, { createProvider }, { openDatabase }] = await Promise.all([
    import('../src/app'),
    import('../src/services'),
    import('../src/cli/precompile'),
    import('../src/modules/graphql'),
    import('../src/providers/registry'),
    import('../src/db/client'),
  ]);
  if (reached('database')) {
    const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config), maxConnections: config.databasePoolMax });
    close = () => database.close();
    if (reached('services')) {
      const services = await createServices(config, { provider: createProvider(config, { log }), database, warmPool: reached('pool'), log });
      close = () => services.close();
      if (reached('warm')) await services.warm();
      if (reached('compose')) {
        const app = createApp(services);
        await precompileHeavyRoutes(app);
        await prepareGraphQL(services);
        if (reached('app')) app.listen({ port: Number(process.env.PORT), hostname: '127.0.0.1' });
      }
    }
  }
}
// A second, idle Bun.serve beside the floor (does one more listening server cost the floor's requests?).
if (step === 'second-server') Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => new Response() });
// prom-client's default process metrics alone (services.warm starts them), in an otherwise empty process.
if (step === 'process-metrics') {
  const { Metrics } = await import('../src/metrics');
  await new Metrics().startProcessMetrics();
}
// What the embedded database brings into the process, without it: a large WebAssembly memory (PGlite's is one), or a large JS heap.
const kept: unknown[] = [];
if (step === 'wasm-memory') {
  const memory = new WebAssembly.Memory({ initial: 2048, maximum: 32768 }); // 128 MiB
  new Uint8Array(memory.buffer).fill(1);
  kept.push(memory);
}
if (step === 'js-heap') for (let i = 0; i < 1_000_000; i++) kept.push({ i, name: `object ${i}`, list: [i, i + 1] });
process.on('SIGTERM', () => void (close?.() ?? Promise.resolve()).finally(() => process.exit(0)));
console.log('step ready');
