/** @module cli/verify-ledger — `breakline verify-ledger`: recomputes both hash chains (the live ledger and the replay ledger) in the configured database; exit 0 only when both hold. */
import { pgliteDataDir } from '../config';
import { openDatabase } from '../db/client';
import { LedgerRepository, REPLAY_CHAIN } from '../db/repositories/ledger';
import { verifyLedgers } from '../ledger/verify';
import { configOrExit } from './config';

export async function verifyLedgerCommand(): Promise<number> {
  const config = configOrExit();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config) });
  const report = await verifyLedgers({ live: new LedgerRepository(database.db), replay: new LedgerRepository(database.db, REPLAY_CHAIN) });
  await database.close();
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report.ok ? 0 : 1;
}
