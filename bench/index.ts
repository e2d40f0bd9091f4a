/**
 * Runs every benchmark in turn; each prints its own table. `--smoke` shortens
 * them (CI runs that as a smoke test; the numbers of a smoke run mean little).
 */
import { benchBoot } from './boot';
import { benchAuth } from './auth';
import { benchHttp } from './http';
import { benchDurability } from './durability';
import { benchExplain } from './explain';
import { benchForecast } from './forecast';
import { benchGraphql } from './graphql';
import { benchKernels } from './kernels';
import { benchLedger } from './ledger';
import { benchOptions } from './options';
import { benchReplay } from './replay';
import { benchScan } from './scan';
import { benchStall } from './stall';
import { benchSse } from './sse';
import { benchSynthetic } from './synthetic';

await benchSynthetic();
await benchKernels();
await benchHttp();
await benchAuth();
await benchGraphql();
await benchScan();
await benchReplay();
await benchOptions();
await benchForecast();
await benchLedger();
await benchBoot();
await benchExplain();
await benchStall();
await benchSse();
if (!(await benchDurability())) process.exitCode = 1;
