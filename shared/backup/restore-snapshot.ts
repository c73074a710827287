/**
 * `make restore`: puts a snapshot (take-snapshot.ts) back in place of a service's database and uploads.
 *
 * It refuses while anything has the database open: every connection of the service (the api's, the
 * daemon's thread's) holds a shared lock on the file in WAL mode for as long as it is open, so an
 * exclusive lock is only granted once the service is stopped. It verifies the snapshot first (every
 * file's size and hash, and a schema this release knows how to upgrade), copies it beside the live data
 * (`.restoring-<time>`, on the same disk), and only then swaps by renames. The data it replaces is not
 * deleted: it is moved to DATA_DIR/replaced-<time>/.
 */
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createClient } from '@libsql/client';
import { readJournal } from '../db/migration-journal';
import { type DataLocation, localDatabasePath, uploadsFolder } from './data-location';
import {
  readVerifiedManifest,
  SNAPSHOT_DB_NAME,
  SnapshotError,
  type SnapshotManifest,
} from './snapshot-manifest';

export interface RestoredSnapshot {
  manifest: SnapshotManifest;
  /** Where the data it replaced was moved; undefined when there was none. */
  replacedFolder: string | undefined;
}

export async function restoreSnapshot(location: DataLocation, from: string): Promise<RestoredSnapshot> {
  const databasePath = localDatabasePath(location);
  const manifest = await readVerifiedManifest(from);
  const known = readJournal().map((entry) => entry.tag);
  if (manifest.schemaVersion !== null && !known.includes(manifest.schemaVersion))
    throw new SnapshotError(
      `The snapshot at ${from} holds schema ${manifest.schemaVersion}, which this release does not know (a newer release wrote it): restore it with that release.`,
    );
  if (await databaseInUse(databasePath))
    throw new SnapshotError(
      `The service is running on ${databasePath} (the database is open): stop it, then run make restore again.`,
    );

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const staging = join(location.dataDir, `.restoring-${stamp}`);
  await mkdir(join(staging, 'uploads'), { recursive: true });
  try {
    await copyFile(join(from, SNAPSHOT_DB_NAME), join(staging, SNAPSHOT_DB_NAME));
    for (const file of manifest.uploads) await copyFile(join(from, file.path), join(staging, file.path));
    const replacedFolder = join(location.dataDir, `replaced-${stamp}`);
    const moved = await swapIn(
      [
        // The database with its WAL: committed writes not yet checkpointed are in the -wal file.
        ...['', '-wal', '-shm'].map((suffix) => ({
          live: `${databasePath}${suffix}`,
          staged: suffix ? undefined : join(staging, SNAPSHOT_DB_NAME),
          aside: join(replacedFolder, `${basename(databasePath)}${suffix}`),
        })),
        {
          live: uploadsFolder(location),
          staged: join(staging, 'uploads'),
          aside: join(replacedFolder, 'uploads'),
        },
      ],
      replacedFolder,
    );
    return { manifest, replacedFolder: moved ? replacedFolder : undefined };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * True while a connection elsewhere has the database open. A missing file is not in use. The check's
 * own connection asks for the exclusive lock once, without waiting, and lets it go.
 */
async function databaseInUse(databasePath: string): Promise<boolean> {
  if (!(await exists(databasePath))) return false;
  const probe = createClient({ url: `file:${databasePath}` });
  try {
    // One exec, no prepared statement: libSQL closes a connection only once its statements are
    // collected, and this one's lock must not outlive the check.
    await probe.executeMultiple('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; ROLLBACK;');
    return false;
  } catch (error) {
    if (/SQLITE_BUSY|locked/i.test((error as Error).message)) return true;
    throw error;
  } finally {
    probe.close();
  }
}

interface Swap {
  live: string;
  /** What takes its place; undefined: nothing (the old database's -wal goes aside with it). */
  staged: string | undefined;
  aside: string;
}

/**
 * Moves each live path aside, then each staged one into its place. A rename that fails undoes the
 * ones done before it, so the live data is either all old or all new. Returns whether anything was
 * moved aside.
 */
async function swapIn(swaps: Swap[], replacedFolder: string): Promise<boolean> {
  const undo: (() => Promise<void>)[] = [];
  let movedAside = false;
  try {
    for (const { live, staged, aside } of swaps) {
      if (await exists(live)) {
        await mkdir(replacedFolder, { recursive: true });
        await rename(live, aside);
        movedAside = true;
        undo.push(() => rename(aside, live));
      }
      if (staged) {
        await mkdir(dirname(live), { recursive: true });
        await rename(staged, live);
        undo.push(() => rename(live, staged));
      }
    }
    return movedAside;
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    throw new SnapshotError(
      `Restoring failed and was undone, the data is as it was: ${(error as Error).message}.`,
      {
        cause: error,
      },
    );
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
