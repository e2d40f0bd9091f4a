/**
 * @module db/migrator
 * The one place Breakline reaches into drizzle-orm's internals: its dialect
 * migrator, fed the migrations embedded from drizzle/ (scripts/embed-migrations.ts).
 * drizzle's public `migrate(db, { migrationsFolder })` reads SQL files from a
 * folder, and the standalone executable has none on disk; the dialect's
 * `migrate(metas, session, config)` is what that public function calls after
 * reading them (drizzle-orm 0.45: pglite/migrator.js, postgres-js/migrator.js),
 * so the bookkeeping table (`drizzle.__drizzle_migrations`) and its hashes are
 * the ones `drizzle-kit` expects (hash = SHA-256 of the SQL file, as drizzle-orm's
 * `readMigrationFiles`). test/db/migrator.test.ts fails loudly if an upgrade
 * moves either.
 */
import { createHash } from 'node:crypto';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { migrations } from '../../drizzle/migrations';

/** What drizzle's public migrator would read from drizzle/, built from the embedded copies. */
export function migrationMetas(): MigrationMeta[] {
  return migrations.map((m) => ({
    sql: m.sql.split('--> statement-breakpoint'),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: createHash('sha256').update(m.sql).digest('hex'),
  }));
}

interface DrizzleInternals {
  dialect?: { migrate?: (metas: MigrationMeta[], session: unknown, config: object) => Promise<void> };
  session?: unknown;
}

/** Applies every embedded migration not yet recorded in `drizzle.__drizzle_migrations`, in order. */
export async function applyMigrations(db: object): Promise<void> {
  const internal = db as DrizzleInternals;
  const migrate = internal.dialect?.migrate;
  if (typeof migrate !== 'function' || internal.session === undefined) {
    throw new Error('drizzle-orm no longer exposes dialect.migrate(metas, session, config): src/db/migrator.ts must follow the upgrade');
  }
  await migrate.call(internal.dialect, migrationMetas(), internal.session, { migrationsFolder: 'drizzle' });
}
