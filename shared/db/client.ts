/**
 * The database handle: libSQL through drizzle. A `file:` URL is a local file (its folder is created);
 * any other URL is a libSQL server, reached with DATABASE_AUTH_TOKEN when one is set.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, createClient } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from './schema';

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

export interface DbOptions {
  url: string;
  authToken?: string | undefined;
}

export function openDb({ url, authToken }: DbOptions): Db {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length);
    if (path && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  }
  const client = createClient(authToken ? { url, authToken } : { url });
  return drizzle(client, { schema }) as Db;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the committed migrations that are newer than the last applied one. Run before serving. */
export async function migrateDb(db: Db): Promise<void> {
  // WAL lets the api read while the daemon writes history; busy_timeout waits out short write locks
  // instead of failing with SQLITE_BUSY when both write at once.
  if (db.$client.protocol === 'file') {
    await db.$client.execute('PRAGMA journal_mode = WAL');
    await db.$client.execute('PRAGMA busy_timeout = 5000');
  }
  await db.$client.execute('PRAGMA foreign_keys = ON');
  await migrate(db, { migrationsFolder });
}
