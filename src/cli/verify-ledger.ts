/** @module cli/verify-ledger — `breakline verify-ledger`: recomputes the ledger's hash chain in the configured database; exit 0 only when it holds. */
import { pgliteDataDir } from '../config';
import { openDatabase } from '../db/client';
import { LedgerRepository } from '../db/repositories/ledger';
import { verifyLedger } from '../ledger/verify';
import { configOrExit } from './config';

export async function verifyLedgerCommand(): Promise<number> {
  const config = configOrExit();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config) });
  const report = await verifyLedger(new LedgerRepository(database.db));
  await database.close();
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report.ok ? 0 : 1;
}
