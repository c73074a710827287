/**
 * The database handle: libSQL (libsql-client.ts: a local file or a libSQL server) through drizzle.
 * The daemon opens its handle with openDaemonDb (daemon-db.ts) instead, whose local file's statements
 * run on a thread of their own.
 */
import { fileURLToPath } from 'node:url';
import type { Client } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { type DbOptions, openLibsqlClient } from './libsql-client';
import * as schema from './schema';

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

export function openDb(options: DbOptions): Db {
  return dbOn(openLibsqlClient(options));
}

/** Drizzle, with this project's schema, over `client`. */
export function dbOn(client: Client): Db {
  return drizzle(client, { schema }) as Db;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the committed migrations that are newer than the last applied one. Run before serving. */
export async function migrateDb(db: Db): Promise<void> {
  // WAL (kept in the file itself) lets the api read while the daemon writes history.
  if (db.$client.protocol === 'file') await db.$client.execute('PRAGMA journal_mode = WAL');
  else await db.$client.execute('PRAGMA foreign_keys = ON');
  await migrate(db, { migrationsFolder });
}
