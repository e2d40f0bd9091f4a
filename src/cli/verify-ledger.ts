/**
 * @module cli/verify-ledger — `breakline verify-ledger`: recomputes both hash
 * chains (the live ledger and the replay ledger) in the configured database;
 * exit 0 only when both hold.
 * Refuses (exit 75, EX_TEMPFAIL) while a server is using the embedded
 * database: PGlite is single-process, and the server answers the same
 * question at /api/transparency/verify.
 */
import { pgliteDataDir } from '../config';
import { configOrExit } from './config';
import { holdEmbeddedDatabase, refusalWhileHeld } from './state-lock';

export async function verifyLedgerCommand(): Promise<number> {
  const config = configOrExit();
  const lock = await holdEmbeddedDatabase(config, 'breakline verify-ledger');
  if (!lock.ok) {
    process.stderr.write(refusalWhileHeld(lock.holder, config, 'open the embedded database'));
    return 75;
  }
  const [{ openDatabase }, { LedgerRepository, REPLAY_CHAIN }, { verifyLedgers }] = await Promise.all([
    import('../db/client'),
    import('../db/repositories/ledger'),
    import('../ledger/verify'),
  ]);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config) });
  const report = await verifyLedgers({ live: new LedgerRepository(database.db), replay: new LedgerRepository(database.db, REPLAY_CHAIN) });
  await database.close();
  lock.release();
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report.ok ? 0 : 1;
}
