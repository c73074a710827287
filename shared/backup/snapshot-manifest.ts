/**
 * A snapshot's manifest.json: what `make backup` wrote (the database file and every upload, each with
 * its size and SHA-256) and which schema the database holds (its last applied migration), so
 * `make restore` can tell a whole snapshot from a damaged one before it replaces anything.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MANIFEST_NAME = 'manifest.json';
/** The database's name inside a snapshot, whatever its name in DATA_DIR. */
export const SNAPSHOT_DB_NAME = 'bot.db';
const FORMAT = 1;

export interface SnapshotFile {
  /** Relative to the snapshot's folder, with `/`: `bot.db`, `uploads/<stored name>`. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface SnapshotManifest {
  format: typeof FORMAT;
  createdAt: string;
  /** The last migration applied to the database (its tag), or null for a database never migrated. */
  schemaVersion: string | null;
  database: SnapshotFile;
  uploads: SnapshotFile[];
}

/** A refusal of backup or restore: its message is the whole sentence the command prints. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

export async function describeFile(folder: string, path: string): Promise<SnapshotFile> {
  const full = join(folder, path);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(full)) hash.update(chunk as Buffer);
  return { path, bytes: (await stat(full)).size, sha256: hash.digest('hex') };
}

export async function writeManifest(
  folder: string,
  manifest: Omit<SnapshotManifest, 'format'>,
): Promise<SnapshotManifest> {
  const written = { format: FORMAT, ...manifest } as const;
  await writeFile(join(folder, MANIFEST_NAME), `${JSON.stringify(written, null, 2)}\n`);
  return written;
}

/**
 * The manifest of the snapshot in `folder`, after checking that every file it lists is there with its
 * size and hash. Throws a SnapshotError saying what is missing or damaged.
 */
export async function readVerifiedManifest(folder: string): Promise<SnapshotManifest> {
  let text: string;
  try {
    text = await readFile(join(folder, MANIFEST_NAME), 'utf8');
  } catch {
    throw new SnapshotError(`No snapshot at ${folder}: it has no ${MANIFEST_NAME} (make backup writes one).`);
  }
  const manifest = parseManifest(text);
  if (!manifest)
    throw new SnapshotError(`The snapshot at ${folder} is damaged: its ${MANIFEST_NAME} is unreadable.`);
  for (const listed of [manifest.database, ...manifest.uploads]) {
    const found = await describeFile(folder, listed.path).catch(() => undefined);
    if (!found)
      throw new SnapshotError(`The snapshot at ${folder} is incomplete: ${listed.path} is missing.`);
    if (found.bytes !== listed.bytes || found.sha256 !== listed.sha256)
      throw new SnapshotError(
        `The snapshot at ${folder} is damaged: ${listed.path} is not the file the backup wrote (its size or SHA-256 differs).`,
      );
  }
  return manifest;
}

function parseManifest(text: string): SnapshotManifest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const manifest = value as SnapshotManifest;
  const isFile = (file: unknown) => {
    const f = file as SnapshotFile;
    return (
      typeof f?.path === 'string' &&
      !f.path.split('/').includes('..') &&
      !f.path.startsWith('/') &&
      typeof f.bytes === 'number' &&
      typeof f.sha256 === 'string'
    );
  };
  const whole =
    manifest?.format === FORMAT &&
    (manifest.schemaVersion === null || typeof manifest.schemaVersion === 'string') &&
    isFile(manifest.database) &&
    manifest.database.path === SNAPSHOT_DB_NAME &&
    Array.isArray(manifest.uploads) &&
    manifest.uploads.every((f) => isFile(f) && f.path.startsWith('uploads/'));
  return whole ? manifest : undefined;
}
