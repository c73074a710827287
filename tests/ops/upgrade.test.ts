/**
 * Upgrades without loss (issue 41): a database the first release wrote (tests/fixtures/old-release,
 * schema 0000-0001, rows in every table it had) is upgraded by the real service at its start, and every
 * table still holds what it held, with the columns later releases added at their defaults. A migration
 * that fails leaves the database as it was and the start stops with a sentence naming it: a broken
 * migration in a copy of the migrations folder through the migrator, and a real one (0010 meeting a
 * column someone already added by hand) through the service's own entry.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../openapi/client';
import { MigrationFailed, migrateDb, openDb } from '../../shared/db/client';
import {
  lastAppliedMigration,
  MIGRATIONS_FOLDER,
  MIGRATIONS_TABLE,
  readJournal,
} from '../../shared/db/migration-journal';
import { checkedFetch } from '../../testkit/checked-answers';
import { CookieJar, sendingCookies } from '../../testkit/cookie-jar';
import { freePort } from '../../testkit/free-port';
import { runEntry, runService } from '../../testkit/run-service';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'old-release', 'release-0001.sql');
const ADMIN_PASSWORD = 'correct horse battery';

/** What the first release's rows must still say after any upgrade: per table, its rows' key fields. */
const KEPT: Record<string, { order: string; columns: string; rows: unknown[][] }> = {
  users: {
    order: 'id',
    columns: 'id, username, role, capabilities, all_bots',
    rows: [
      ['guest', 'guest', 'guest', '[]', 0],
      ['u-admin', 'admin', 'admin', '[]', 1],
      ['u-alice', 'Alice', 'member', '["player.control","player.queue"]', 0],
    ],
  },
  bots: {
    order: 'id',
    columns:
      'id, name, server_address, server_port, nickname, default_channel, channel_id, volume, play_mode',
    rows: [
      ['b-lobby', 'Lobby', 'ts.example.org', 9987, 'Lobby Bot', 'Music', null, 35, 'loop'],
      ['b-night', 'Night', '10.0.0.7', 9988, 'Night Bot', null, '5', 60, 'random'],
    ],
  },
  api_keys: {
    order: 'id',
    columns: 'id, user_id, name, key_prefix',
    rows: [['k-1', 'u-alice', 'laptop', 'tsmb_ab12cd']],
  },
  bot_grants: { order: 'user_id', columns: 'user_id, bot_id', rows: [['u-alice', 'b-lobby']] },
  rate_limits: { order: 'key', columns: 'key, count', rows: [['login:203.0.113.5', 3]] },
  sessions: {
    order: 'id',
    columns: 'id, user_id, expires_at',
    rows: [['s-admin-1', 'u-admin', 4102444800000]],
  },
  audit_log: {
    order: 'id',
    columns: 'id, actor_username, target_username, action',
    rows: [
      [1, 'admin', 'Alice', 'user.create'],
      [2, 'admin', null, 'apikey.create'],
    ],
  },
  play_history: {
    order: 'id',
    columns: 'id, bot_id, song_id, name, platform, requested_by',
    rows: [
      [1, 'b-lobby', '1001', 'First Song', 'music_a', 'admin'],
      [2, 'b-lobby', '1002', 'Second Song', 'music_a', 'Alice'],
      [3, 'b-night', 'BV1xx411c7mD', 'A Video', 'video_a', null],
    ],
  },
  queue_snapshots: {
    order: 'bot_id',
    columns:
      "bot_id, json_array_length(songs), json_extract(songs, '$[1].name'), current_index, position_seconds",
    rows: [['b-lobby', 2, 'Second Song', 1, 42]],
  },
  favorites: {
    order: 'id',
    columns: 'id, user_id, platform, playlist_id, name, song_count',
    rows: [
      ['f-1', 'u-admin', 'music_a', '24381616', 'Chill Mix', 25],
      ['f-2', 'u-alice', 'music_b', '7039187', '周末歌单', 12],
    ],
  },
  personal_links: {
    order: 'user_id',
    columns: 'user_id, platform, credential, nickname',
    rows: [['u-alice', 'music_a', 'MUSIC_U=abc; __csrf=c1', 'alice163']],
  },
  platform_accounts: {
    order: 'platform',
    columns: 'platform, credential, nickname',
    rows: [['music_a', 'MUSIC_U=shared; __csrf=c2', 'Shared Account']],
  },
  qr_logins: {
    order: 'key',
    columns: 'key, platform, user_id, status',
    rows: [['qr-1', 'music_a', 'u-admin', 'waiting']],
  },
  saved_queues: {
    order: 'id',
    columns: "id, owner_id, name, song_count, json_extract(songs, '$[0].id')",
    rows: [['sq-1', 'u-admin', 'Evening', 2, '1001']],
  },
  uploads: {
    order: 'id',
    columns: 'id, original_name, stored_name, size_bytes, duration_seconds, uploaded_by',
    rows: [['up-1', 'My Song.mp3', 'up-1.mp3', 123456, 187, 'u-admin']],
  },
  settings: {
    order: 'key',
    columns: 'key, value',
    rows: [
      ['savedQueuesEnabled', 'true'],
      ['voteSkipRatio', '0.5'],
    ],
  },
};

/** What the later migrations added to those rows: their defaults, and 0002 took `avatar_path` out. */
const ADDED: Record<string, { order: string; columns: string; rows: unknown[][] }> = {
  bots: {
    order: 'id',
    columns: 'loudness_normalization, loudness_target, autoplay, crossfade_seconds, client_version',
    rows: [
      [1, -16, 'off', 0, 'auto'],
      [1, -16, 'off', 0, 'auto'],
    ],
  },
  uploads: {
    order: 'id',
    columns: 'title, artist, album, lyrics, cover_data, loudness_lufs',
    rows: [['', '', '', '', null, null]],
  },
  play_history: { order: 'id', columns: 'duration', rows: [[null], [null], [null]] },
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** A DATA_DIR whose bot.db is the old release's database, loaded from its dump. */
async function oldReleaseDataDir(): Promise<{ dataDir: string; databasePath: string }> {
  const dataDir = tempFolder('tsmb-upgrade-');
  const databasePath = join(dataDir, 'bot.db');
  const client = createClient({ url: `file:${databasePath}` });
  await client.executeMultiple(readFileSync(FIXTURE, 'utf8'));
  client.close();
  return { dataDir, databasePath };
}

async function rowsOf(client: Client, table: string, columns: string, order: string): Promise<unknown[][]> {
  const result = await client.execute(`SELECT ${columns} FROM ${table} ORDER BY ${order}`);
  return result.rows.map((row) => Array.from(row));
}

/** Every table's columns, as SQLite describes them: the schema a database ended up with. */
async function schemaOf(client: Client): Promise<Record<string, string[]>> {
  const tables = await client.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  const schema: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    const columns = await client.execute(
      `SELECT name, type, \`notnull\`, dflt_value FROM pragma_table_info('${name}')`,
    );
    schema[String(name)] = columns.rows.map((c) => Array.from(c).join(' ')).sort();
  }
  return schema;
}

/** Every row of every table: to compare a database before and after something that must not change it. */
async function contentsOf(client: Client): Promise<Record<string, unknown[][]>> {
  const contents: Record<string, unknown[][]> = {};
  for (const table of Object.keys(await schemaOf(client)))
    contents[table] = await rowsOf(client, table, '*', 'rowid');
  return contents;
}

/** A copy of the committed migrations whose journal stops at `lastTag`, plus `extra` ones after it. */
function migrationsFolder(lastTag: string, extra: { tag: string; sql: string }[] = []): string {
  const folder = tempFolder('tsmb-migrations-');
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === lastTag) + 1);
  for (const { tag, sql } of extra) {
    writeFileSync(join(folder, `${tag}.sql`), sql);
    journal.entries.push({ ...journal.entries.at(-1)!, tag, when: journal.entries.at(-1)!.when + 1000 });
  }
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  return folder;
}

describe('the first release’s database', () => {
  it('is the schema of migrations 0000-0001 with a row in every table it had', async () => {
    const { databasePath } = await oldReleaseDataDir();
    const client = createClient({ url: `file:${databasePath}` });
    expect(await lastAppliedMigration(client)).toBe('0001_guest_principal');
    const tables = Object.keys(await schemaOf(client)).filter((t) => t !== MIGRATIONS_TABLE);
    expect(tables.sort()).toEqual(Object.keys(KEPT).sort());
    for (const [table, { columns, order, rows }] of Object.entries(KEPT))
      expect(await rowsOf(client, table, columns, order), table).toEqual(rows);
    client.close();
  });

  it('is upgraded by the service at its start with nothing lost', async () => {
    const { dataDir, databasePath } = await oldReleaseDataDir();
    const main = ['node', '--import', 'tsx', 'main.ts'];
    // Started, answering (so migrated), stopped: then every row is compared, before anything adds rows.
    await (await runService({ DATA_DIR: dataDir }, main)).stop();

    const client = createClient({ url: `file:${databasePath}` });
    expect(await lastAppliedMigration(client)).toBe(readJournal().at(-1)!.tag);
    for (const [table, { columns, order, rows }] of Object.entries(KEPT))
      expect(await rowsOf(client, table, columns, order), table).toEqual(rows);
    for (const [table, { columns, order, rows }] of Object.entries(ADDED))
      expect(await rowsOf(client, table, columns, order), table).toEqual(rows);
    expect(await rowsOf(client, 'bot_avatars', 'bot_id', 'bot_id')).toEqual([]);
    // The upgraded schema is today's: the same tables and columns as a database created by this release.
    const fresh = openDb({ url: `file:${join(tempFolder('tsmb-fresh-'), 'bot.db')}` });
    await migrateDb(fresh);
    expect(await schemaOf(client)).toEqual(await schemaOf(fresh.$client));
    fresh.$client.close();
    client.close();

    // Started again on it: the release's admin logs in with its password and finds its bots and playlists.
    const service = await runService({ DATA_DIR: dataDir }, main);
    try {
      const jar = new CookieJar();
      const api = createApiClient({ baseUrl: service.baseUrl, fetch: sendingCookies(jar, checkedFetch) });
      const login = await api.POST('/api/session/login', {
        body: { username: 'admin', password: ADMIN_PASSWORD },
      });
      expect(login.response.status).toBe(200);
      const listed = await api.GET('/api/bot');
      expect(listed.data?.bots.map((bot) => bot.name).sort()).toEqual(['Lobby', 'Night']);
      const favorites = await api.GET('/api/favorites');
      expect(favorites.data?.favorites.map((f) => f.name)).toEqual(['Chill Mix']);
    } finally {
      await service.stop();
    }
  }, 120_000);
});

describe('a migration that fails', () => {
  it('rolls back every migration of the start and names the one that failed', async () => {
    const { databasePath } = await oldReleaseDataDir();
    const db = openDb({ url: `file:${databasePath}` });
    const before = await contentsOf(db.$client);
    const schemaBefore = await schemaOf(db.$client);
    // Ten good migrations, then one whose first statement works and whose second cannot.
    const folder = migrationsFolder(readJournal().at(-1)!.tag, [
      {
        tag: '0011_broken',
        sql: 'ALTER TABLE `bots` ADD `halfway` integer;--> statement-breakpoint\nALTER TABLE `no_such_table` ADD `x` integer;',
      },
    ]);

    const failed = await migrateDb(db, folder).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(MigrationFailed);
    expect((failed as Error).message).toMatch(
      /^Upgrading the database failed at migration 0011_broken: .*no such table: no_such_table.*The database was not changed/,
    );
    expect(await lastAppliedMigration(db.$client)).toBe('0001_guest_principal');
    expect(await schemaOf(db.$client)).toEqual(schemaBefore);
    expect(await contentsOf(db.$client)).toEqual(before);

    // Without the broken one, the same database upgrades.
    await migrateDb(db);
    expect(await lastAppliedMigration(db.$client)).toBe(readJournal().at(-1)!.tag);
    db.$client.close();
  });

  it('stops the service’s start with that sentence, the database as it was', async () => {
    const { dataDir, databasePath } = await oldReleaseDataDir();
    // A database at 0009 to which someone already added 0010's column by hand.
    const db = openDb({ url: `file:${databasePath}` });
    await migrateDb(db, migrationsFolder('0009_bot_crossfade'));
    await db.$client.execute("ALTER TABLE `bots` ADD `client_version` text DEFAULT 'ts3' NOT NULL");
    const before = await contentsOf(db.$client);
    db.$client.close();

    const service = runEntry('main.ts', {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    const end = await service.exited;
    expect(end.code).not.toBe(0);
    expect(service.output()).toContain(
      'Upgrading the database failed at migration 0010_bot_client_version: SQLITE_ERROR: duplicate column name: client_version. The database was not changed: every migration of this start was rolled back.',
    );

    const after = createClient({ url: `file:${databasePath}` });
    expect(await lastAppliedMigration(after)).toBe('0009_bot_crossfade');
    expect(await contentsOf(after)).toEqual(before);
    after.close();
  }, 60_000);
});
