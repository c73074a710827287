/**
 * Snapshots without a service: what a snapshot holds, and restore's refusals of a missing, damaged or
 * too new snapshot before anything is touched. The restore itself, its refusal while the service runs
 * and the data it keeps aside are in tests/ops/backup-restore.test.ts, with `make restore` in a process
 * of its own as operators run it: libSQL lets go of a closed connection's lock only once its statements
 * are garbage-collected, so in this process the test's own closed connections would look like a
 * running service.
 */
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { addToneUpload } from '../../testkit/tone-uploads';
import { migrateDb, openDb } from '../db/client';
import { readJournal } from '../db/migration-journal';
import { favorites, users } from '../db/schema';
import { restoreSnapshot } from './restore-snapshot';
import { MANIFEST_NAME, type SnapshotManifest } from './snapshot-manifest';
import { takeSnapshot } from './take-snapshot';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const tempFolder = (prefix: string) => {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
};
const locationOf = (dataDir: string) => ({ dataDir, databaseUrl: `file:${join(dataDir, 'bot.db')}` });

/** A DATA_DIR with a user, a favorite named `favorite` and one upload; its database closed. */
async function dataDirWith(favorite: string) {
  const dataDir = tempFolder('snapshot-data-');
  const db = openDb({ url: locationOf(dataDir).databaseUrl });
  await migrateDb(db);
  await db.insert(users).values({ id: 'u1', username: 'admin', role: 'admin', createdAt: new Date() });
  await db.insert(favorites).values({
    id: 'f1',
    userId: 'u1',
    platform: 'music_a',
    playlistId: '1',
    name: favorite,
    createdAt: new Date(),
  });
  const song = await addToneUpload(db, dataDir, favorite, [{ frequencyHz: 440, seconds: 1 }]);
  db.$client.close();
  return { dataDir, song };
}

async function favoriteNames(dataDir: string): Promise<string[]> {
  const client = createClient({ url: locationOf(dataDir).databaseUrl });
  const rows = (await client.execute('SELECT name FROM favorites')).rows.map((r) => String(r.name));
  client.close();
  return rows;
}

describe('a snapshot', () => {
  it('holds the database at its schema version and each upload it lists, with sizes and hashes', async () => {
    const { dataDir, song } = await dataDirWith('Old');
    // A file no row names (an upload half taken in) is not part of it.
    writeFileSync(join(dataDir, 'uploads', 'stray.wav'), 'x');
    const { folder, manifest } = await takeSnapshot(locationOf(dataDir), tempFolder('snapshots-'));
    expect(manifest.schemaVersion).toBe(readJournal().at(-1)!.tag);
    expect(manifest.uploads.map((f) => f.path)).toEqual([
      `uploads/${readdirSync(join(dataDir, 'uploads')).find((n) => n.startsWith(song.id))}`,
    ]);
    expect(readdirSync(join(folder, 'uploads'))).toHaveLength(1);
    const written = JSON.parse(readFileSync(join(folder, MANIFEST_NAME), 'utf8')) as SnapshotManifest;
    expect(written).toEqual(manifest);
    expect(await favoriteNames(folder)).toEqual(['Old']);
  });

  it('is refused for a DATA_DIR without a database and for a libSQL server', async () => {
    const into = tempFolder('snapshots-');
    const empty = tempFolder('snapshot-empty-');
    await expect(takeSnapshot(locationOf(empty), into)).rejects.toThrow(
      `No database at ${join(empty, 'bot.db')}`,
    );
    await expect(
      takeSnapshot({ dataDir: empty, databaseUrl: 'http://127.0.0.1:8080' }, into),
    ).rejects.toThrow(
      "DATABASE_URL is a libSQL server (http://127.0.0.1:8080): back its database up with the server's own tools",
    );
    expect(readdirSync(into)).toEqual([]);
  });
});

describe('restoring a snapshot', () => {
  async function snapshotAndNewerData() {
    const { dataDir } = await dataDirWith('Old');
    const { folder } = await takeSnapshot(locationOf(dataDir), tempFolder('snapshots-'));
    const newer = await dataDirWith('New');
    return { folder, live: newer.dataDir };
  }

  it.each([
    [
      'no manifest',
      (f: string) => unlinkSync(join(f, MANIFEST_NAME)),
      /^No snapshot at .*: it has no manifest\.json/,
    ],
    [
      'an unreadable manifest',
      (f: string) => writeFileSync(join(f, MANIFEST_NAME), '{"format":'),
      /is damaged: its manifest\.json is unreadable/,
    ],
    [
      'a changed upload',
      (f: string) => appendFileSync(join(f, 'uploads', readdirSync(join(f, 'uploads'))[0]!), 'x'),
      /is damaged: uploads\/.* is not the file the backup wrote/,
    ],
    ['a missing database', (f: string) => unlinkSync(join(f, 'bot.db')), /is incomplete: bot\.db is missing/],
    [
      'a schema this release does not know',
      (f: string) => {
        const manifest = JSON.parse(readFileSync(join(f, MANIFEST_NAME), 'utf8')) as SnapshotManifest;
        writeFileSync(join(f, MANIFEST_NAME), JSON.stringify({ ...manifest, schemaVersion: '9999_future' }));
      },
      /holds schema 9999_future, which this release does not know/,
    ],
  ])('refuses %s and touches nothing', async (_what, damage, message) => {
    const { folder, live } = await snapshotAndNewerData();
    damage(folder);
    await expect(restoreSnapshot(locationOf(live), folder)).rejects.toThrow(message);
    expect(await favoriteNames(live)).toEqual(['New']);
    expect(readdirSync(live).filter((name) => /^(replaced-|\.restoring)/.test(name))).toEqual([]);
  });
});
