/**
 * /api/forecast latency in-process: a GARCH(1,1) fit over 1,260 returns, the
 * cone, its calibration over ~1,200 past origins, the one-symbol scan in the
 * worker pool and the ledger read. `bun run bench/forecast.ts [--smoke]`.
 */
import { inProcessLatency } from './lib';

export async function benchForecast(): Promise<void> {
  await inProcessLatency('/api/forecast latency, in-process (app.handle; GARCH fit on the main thread, scan in the pool)', [
    '/api/forecast?symbol=AAPL',
    '/api/forecast?symbol=NVDA&model=ewma&horizon=60',
    '/api/forecast?symbol=MSFT&horizon=252',
  ]);
}

if (import.meta.main) await benchForecast();
