/**
 * The committed migrations as drizzle-kit wrote them (migrations/meta/_journal.json), and which of them
 * a database has applied: drizzle's migrator records each applied migration in `__drizzle_migrations`
 * under its journal time (`created_at`), not its name, so the name is found through the journal. A
 * backup's manifest names the schema it holds this way, and a failed upgrade names its migration.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@libsql/client';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** drizzle's bookkeeping table (its default name; the migrator is not given another). */
export const MIGRATIONS_TABLE = '__drizzle_migrations';

export interface JournalEntry {
  /** The file's name without `.sql`, e.g. `0003_upload_tags`. */
  tag: string;
  /** Its time in the journal: what `__drizzle_migrations.created_at` holds once it is applied. */
  when: number;
}

export function readJournal(folder = MIGRATIONS_FOLDER): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** The time of the newest applied migration, as drizzle's migrator compares it; null on a new database. */
export async function lastAppliedTime(client: Client): Promise<number | null> {
  const table = await client.execute({
    sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
    args: [MIGRATIONS_TABLE],
  });
  if (table.rows.length === 0) return null;
  const last = await client.execute(
    `SELECT created_at FROM ${MIGRATIONS_TABLE} ORDER BY created_at DESC LIMIT 1`,
  );
  return last.rows.length === 0 ? null : Number(last.rows[0]![0]);
}

/**
 * The newest applied migration's tag; `unknown (<time>)` when this release's journal lacks it (a
 * database written by a newer release), null on a database no migration ran on.
 */
export async function lastAppliedMigration(
  client: Client,
  folder = MIGRATIONS_FOLDER,
): Promise<string | null> {
  const time = await lastAppliedTime(client);
  if (time === null) return null;
  return readJournal(folder).find((entry) => entry.when === time)?.tag ?? `unknown (${time})`;
}
