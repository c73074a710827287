/**
 * Watches everything the service stores, to show that a refused request changed nothing: every row of
 * every table (dumped by one SQL statement, rows ordered) plus the files under DATA_DIR.
 *
 * A dump of every table per request would cost more than the requests, so the watch keeps the last
 * dump with SQLite's `PRAGMA data_version` on a connection of its own, a number that moves whenever any
 * other connection commits: a dump is taken again only when the data moved since the last one.
 *
 * Left out, because they change on requests that are rightly refused:
 * - `sessions.expires_at`: a session's lifetime is extended when it is used (SPEC: "refreshed on use,
 *   rolling"), also by a request that is then refused for lack of a capability;
 * - `api_keys.last_used_at`: "each use updates lastUsedAt" (SPEC), refused or not;
 * - the `rate_limits` table: counting refused login and setup attempts is what it is for;
 * - the database's own files (`bot.db`, `-wal`, `-shm`), whose bytes change with any read-write
 *   transaction; their content is what the table rows show.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type Client, createClient } from '@libsql/client';

const IGNORED_COLUMNS = new Set(['sessions.expires_at', 'api_keys.last_used_at']);
const IGNORED_TABLES = new Set(['rate_limits', '__drizzle_migrations']);
const DATABASE_FILE = /^bot\.db(-wal|-shm|-journal)?$/;
const TABLE_SEPARATOR = '\u001e';

export interface ChangeWatch {
  /** Call right before a request. */
  before(): Promise<void>;
  /** Call right after it: what it changed (tables, files), empty when nothing. */
  changes(): Promise<string[]>;
  close(): void;
}

/** Every stored row as text, one table per part; `dump` selects it in one statement. */
async function dumpStatement(client: Client): Promise<string> {
  const tables = (
    await client.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
  ).rows
    .map((r) => String(r.name))
    .filter((name) => !IGNORED_TABLES.has(name));
  const parts: string[] = [];
  for (const table of tables) {
    const columns = (await client.execute(`PRAGMA table_info("${table}")`)).rows
      .map((r) => String(r.name))
      .filter((column) => !IGNORED_COLUMNS.has(`${table}.${column}`));
    // quote() renders every value (blobs too) as an SQL literal, so rows compare as text.
    const row = columns.map((c) => `quote("${c}")`).join(` || ',' || `);
    parts.push(
      `'${table}' || char(10) || coalesce((SELECT group_concat(r, char(10)) FROM (SELECT ${row} AS r FROM "${table}" ORDER BY r)), '')`,
    );
  }
  return `SELECT ${parts.join(` || char(30) || `)} AS dump`;
}

export async function watchChanges(databaseUrl: string, dataDir: string): Promise<ChangeWatch> {
  const client = createClient({ url: databaseUrl });
  const dump = await dumpStatement(client);
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return [`${relative(dataDir, path)}/`, ...files(path)];
      if (DATABASE_FILE.test(entry.name)) return [];
      return [`${relative(dataDir, path)} ${statSync(path).size}`];
    });
  const fileList = () => files(dataDir).sort().join('\n');
  const version = async () => Number((await client.execute('PRAGMA data_version')).rows[0]?.[0]);
  const take = async () => String((await client.execute(dump)).rows[0]?.dump ?? '');

  let known = { version: await version(), rows: await take() };
  let filesBefore = fileList();
  return {
    async before() {
      const now = await version();
      if (now !== known.version) known = { version: now, rows: await take() };
      filesBefore = fileList();
    },
    async changes() {
      const changed: string[] = [];
      const now = await version();
      if (now !== known.version) {
        const rows = await take();
        const beforeTables = known.rows.split(TABLE_SEPARATOR);
        rows.split(TABLE_SEPARATOR).forEach((text, i) => {
          if (text !== beforeTables[i]) changed.push(`table ${text.split('\n')[0]}`);
        });
        known = { version: now, rows };
      }
      if (fileList() !== filesBefore) changed.push('files under DATA_DIR');
      return changed;
    },
    close: () => client.close(),
  };
}
