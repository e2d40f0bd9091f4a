/**
 * Runs every benchmark in turn; each prints its own table. `--smoke` shortens
 * them (CI runs that as a smoke test; the numbers of a smoke run mean little).
 */
import { benchHttp } from './http';
import { benchDurability } from './durability';
import { benchForecast } from './forecast';
import { benchKernels } from './kernels';
import { benchLedger } from './ledger';
import { benchOptions } from './options';
import { benchReplay } from './replay';
import { benchScan } from './scan';
import { benchSynthetic } from './synthetic';

await benchSynthetic();
await benchKernels();
await benchHttp();
await benchScan();
await benchReplay();
await benchOptions();
await benchForecast();
await benchLedger();
if (!(await benchDurability())) process.exitCode = 1;
