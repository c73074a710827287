/**
 * The database handle: libSQL (libsql-client.ts: a local file or a libSQL server) through drizzle.
 * The daemon opens its handle with openDaemonDb (daemon-db.ts) instead, whose local file's statements
 * run on a thread of their own.
 */
import type { Client } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type DbOptions, openLibsqlClient } from './libsql-client';
import { lastAppliedTime, MIGRATIONS_FOLDER, readJournal } from './migration-journal';
import * as schema from './schema';

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

export function openDb(options: DbOptions): Db {
  return dbOn(openLibsqlClient(options));
}

/** Drizzle, with this project's schema, over `client`. */
export function dbOn(client: Client): Db {
  return drizzle(client, { schema }) as Db;
}

/** An upgrade that did not happen: its message is the sentence an operator reads when the start stops. */
export class MigrationFailed extends Error {
  override name = 'MigrationFailed';
}

/**
 * Applies the committed migrations (or those in `migrationsFolder`) that are newer than the last
 * applied one. Run before serving. drizzle's migrator applies all of them in one transaction (libSQL's
 * `migrate`, with foreign keys off so a rebuilt table does not cascade), so a failing one takes every
 * change of this start back: the database stays as the previous release left it. Its error names no
 * migration, so the failure is replayed to find it (MigrationFailed).
 */
export async function migrateDb(db: Db, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  // WAL (kept in the file itself) lets the api read while the daemon writes history.
  if (db.$client.protocol === 'file') await db.$client.execute('PRAGMA journal_mode = WAL');
  else await db.$client.execute('PRAGMA foreign_keys = ON');
  try {
    await migrate(db, { migrationsFolder });
  } catch (error) {
    throw await migrationFailure(db.$client, migrationsFolder, error as Error);
  }
}

/**
 * Runs the pending migrations' statements one by one in a transaction that is always rolled back, to
 * name the one that fails. A failure that does not come back (a lock that was released meanwhile) is
 * reported for the pending migrations as a whole.
 */
async function migrationFailure(client: Client, folder: string, error: Error): Promise<Error> {
  let pending: { tag: string; statements: string[] }[];
  try {
    const applied = (await lastAppliedTime(client)) ?? -1;
    const journal = readJournal(folder);
    // readMigrationFiles reads the journal's entries in order: index i is journal entry i.
    pending = readMigrationFiles({ migrationsFolder: folder })
      .map((migration, i) => ({
        tag: journal[i]!.tag,
        when: migration.folderMillis,
        statements: migration.sql,
      }))
      .filter((migration) => migration.when > applied);
  } catch {
    return error;
  }
  const untouched = 'The database was not changed: every migration of this start was rolled back.';
  const transaction = await client.transaction('write');
  try {
    for (const { tag, statements } of pending) {
      for (const statement of statements) {
        try {
          await transaction.execute(statement);
        } catch (cause) {
          return new MigrationFailed(
            `Upgrading the database failed at migration ${tag}: ${(cause as Error).message}. ${untouched}`,
            { cause: error },
          );
        }
      }
    }
  } finally {
    await transaction.rollback().catch(() => undefined);
    transaction.close();
  }
  const tags = pending.map((migration) => migration.tag).join(', ');
  return new MigrationFailed(`Upgrading the database (${tags}) failed: ${error.message}. ${untouched}`, {
    cause: error,
  });
}
