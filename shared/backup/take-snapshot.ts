/**
 * `make backup`: a consistent snapshot of a running service's data in a folder of its own
 * (`<into>/snapshot-<UTC time>/`: bot.db, uploads/, manifest.json).
 *
 * The database is copied by SQLite itself (`VACUUM INTO`), which reads one transaction's view: every
 * write committed before it began and none after, while the service goes on reading and writing. The
 * uploads it lists are copied beside it. An upload's file is written whole before its row (and never
 * changed after), but it can be deleted once played; so the files are copied once before the database
 * too, and a file whose row is in the snapshot but which was deleted meanwhile is still there. Files
 * the snapshot's rows do not name (uploads added after it) are left out. The folder gets its final name
 * only once complete: a backup cut short leaves `*.partial`, never something that looks whole.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { lastAppliedMigration } from '../db/migration-journal';
import { type DataLocation, localDatabasePath, uploadsFolder } from './data-location';
import {
  describeFile,
  SNAPSHOT_DB_NAME,
  SnapshotError,
  type SnapshotManifest,
  writeManifest,
} from './snapshot-manifest';

export interface TakenSnapshot {
  folder: string;
  manifest: SnapshotManifest;
}

export async function takeSnapshot(location: DataLocation, into: string): Promise<TakenSnapshot> {
  const databasePath = localDatabasePath(location);
  // Opening a missing file would make an empty database and back that up.
  if (!existsSync(databasePath))
    throw new SnapshotError(`No database at ${databasePath}: is DATA_DIR (or DATABASE_URL) the service's?`);
  const createdAt = new Date();
  const folder = join(into, `snapshot-${createdAt.toISOString().replace(/[:.]/g, '-')}`);
  const partial = `${folder}.partial`;
  await mkdir(join(partial, 'uploads'), { recursive: true });
  try {
    const source = uploadsFolder(location);
    const copiedEarly = await copyUploads(source, partial, await storedUploads(source));
    const { schemaVersion, listed } = await copyDatabase(databasePath, join(partial, SNAPSHOT_DB_NAME));
    await copyUploads(
      source,
      partial,
      listed.filter((name) => !copiedEarly.has(name)),
    );
    const kept = await keepOnly(partial, new Set(listed));
    const missing = listed.filter((name) => !kept.has(name));
    // Only a file deleted between the two copies, within seconds of its row being written: a restore
    // would list an upload that cannot play, so the snapshot is refused rather than kept short.
    if (missing.length > 0)
      throw new SnapshotError(
        `The backup found no file for ${missing.length} upload(s) its database lists (${missing.join(', ')}); run make backup again.`,
      );
    const manifest = await writeManifest(partial, {
      createdAt: createdAt.toISOString(),
      schemaVersion,
      database: await describeFile(partial, SNAPSHOT_DB_NAME),
      uploads: await Promise.all(listed.sort().map((name) => describeFile(partial, `uploads/${name}`))),
    });
    await rename(partial, folder);
    return { folder, manifest };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/** The stored uploads now in DATA_DIR/uploads: not the intake's `.incoming-*` and `.cover-*` files. */
async function storedUploads(source: string): Promise<string[]> {
  const names = await readdir(source).catch(() => [] as string[]);
  return names.filter((name) => !name.startsWith('.'));
}

/** Copies what is still there; returns the names copied (an upload may be deleted as it is read). */
async function copyUploads(source: string, snapshot: string, names: string[]): Promise<Set<string>> {
  const copied = new Set<string>();
  for (const name of names) {
    try {
      await copyFile(join(source, name), join(snapshot, 'uploads', name));
      copied.add(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return copied;
}

/** VACUUM INTO the snapshot, then what the copy holds: its schema version and its uploads' files. */
async function copyDatabase(databasePath: string, target: string) {
  const live = createClient({ url: `file:${databasePath}` });
  try {
    // Waits out a write that holds the lock for a moment, as the service's own connections do.
    await live.execute('PRAGMA busy_timeout = 5000');
    await live.execute({ sql: 'VACUUM INTO ?', args: [target] });
  } catch (error) {
    throw new SnapshotError(`Could not copy the database ${databasePath}: ${(error as Error).message}.`, {
      cause: error,
    });
  } finally {
    live.close();
  }
  const copy = createClient({ url: `file:${target}` });
  try {
    const schemaVersion = await lastAppliedMigration(copy);
    const hasUploads = await copy.execute(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'uploads'",
    );
    const rows =
      hasUploads.rows.length > 0 ? (await copy.execute('SELECT stored_name FROM uploads')).rows : [];
    return { schemaVersion, listed: rows.map((row) => String(row[0])) };
  } finally {
    copy.close();
  }
}

/** Deletes the early copies no row of the snapshot names; returns the names left. */
async function keepOnly(snapshot: string, listed: Set<string>): Promise<Set<string>> {
  const kept = new Set<string>();
  for (const name of await readdir(join(snapshot, 'uploads'))) {
    if (listed.has(name)) kept.add(name);
    else await rm(join(snapshot, 'uploads', name));
  }
  return kept;
}
