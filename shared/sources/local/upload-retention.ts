/**
 * How long an uploaded file lives (SPEC.md "Local upload"): it is deleted once it has been played and
 * no bot's queue (live or saved) holds it any more, unless `keepUploads` keeps played files as a
 * library; under disk-quota pressure the oldest files no queue holds are evicted first, never the one
 * just uploaded. A file and its row go together.
 *
 * "Held by a queue" is asked of a `ReferencedUploadIds` function, so the caller decides where queues
 * are read from (the stored queues here; the daemons' live queues where they are reachable).
 */
import { unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { asc, eq, isNotNull, sum } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { queueSnapshots, savedQueues, uploads } from '../../db/schema';
import { logger } from '../../logger';
import { UPLOADS_DIR } from './local-source';

const log = logger('uploads');

/** The ids of the uploads some bot's queue holds. */
export type ReferencedUploadIds = () => Promise<Set<string>>;

/** Only the identity of each queued song matters here; the rest of a stored song is not read. */
const StoredSongsSchema = z.array(z.looseObject({ id: z.string(), platform: z.string() }));

/**
 * Uploads held by the queues kept in the database: every bot's live-queue snapshot and every saved
 * queue (a saved queue is loaded back into a bot later, so its songs must still be there). A corrupt
 * blob holds nothing.
 */
export async function uploadsInStoredQueues(db: Db): Promise<Set<string>> {
  const rows = [
    ...(await db.select({ songs: queueSnapshots.songs }).from(queueSnapshots)),
    ...(await db.select({ songs: savedQueues.songs }).from(savedQueues)),
  ];
  const ids = new Set<string>();
  for (const row of rows) {
    let json: unknown;
    try {
      json = JSON.parse(row.songs);
    } catch {
      continue;
    }
    const songs = StoredSongsSchema.safeParse(json);
    if (!songs.success) continue;
    for (const song of songs.data) if (song.platform === 'local') ids.add(song.id);
  }
  return ids;
}

type StoredFile = { id: string; storedName: string };

/** Removes the file, then its row; a file that cannot be removed keeps its row so it is not orphaned. */
async function deleteUpload(db: Db, dataDir: string, upload: StoredFile): Promise<boolean> {
  try {
    await unlink(join(dataDir, UPLOADS_DIR, basename(upload.storedName)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      log.warn({ err: error, uploadId: upload.id }, 'could not delete an uploaded file');
      return false;
    }
  }
  await db.delete(uploads).where(eq(uploads.id, upload.id));
  return true;
}

/** The bytes the uploads take together: what the quota is measured against. */
export async function usedUploadBytes(db: Db): Promise<number> {
  const [row] = await db.select({ total: sum(uploads.sizeBytes) }).from(uploads);
  return Number(row?.total ?? 0);
}

export interface QuotaCheck {
  quotaBytes: number;
  /** The upload that triggered the check: never evicted. */
  keepId: string;
  referenced: Set<string>;
}

/**
 * While the uploads together are over the quota, deletes the oldest ones no queue holds.
 * Answers the ids deleted; when only held files are left it stops over quota rather than break a queue.
 */
export async function evictOverQuota(
  db: Db,
  dataDir: string,
  { quotaBytes, keepId, referenced }: QuotaCheck,
): Promise<string[]> {
  const rows = await db
    .select({ id: uploads.id, storedName: uploads.storedName, sizeBytes: uploads.sizeBytes })
    .from(uploads)
    .orderBy(asc(uploads.createdAt), asc(uploads.id));
  let totalBytes = rows.reduce((sum, row) => sum + row.sizeBytes, 0);
  const evicted: string[] = [];
  for (const row of rows) {
    if (totalBytes <= quotaBytes) break;
    if (row.id === keepId || referenced.has(row.id)) continue;
    if (await deleteUpload(db, dataDir, row)) {
      totalBytes -= row.sizeBytes;
      evicted.push(row.id);
    }
  }
  if (totalBytes > quotaBytes)
    log.warn({ totalBytes, quotaBytes }, 'uploads stay over quota: the rest are queued');
  return evicted;
}

/** Records that an upload has been played (the daemon calls it when a `local` track starts). */
export async function markUploadPlayed(db: Db, id: string, playedAt = new Date()): Promise<void> {
  await db.update(uploads).set({ playedAt }).where(eq(uploads.id, id));
}

/** Deletes every upload that has been played and that no queue holds; answers the ids deleted. */
export async function collectPlayedUploads(
  db: Db,
  dataDir: string,
  referenced: Set<string>,
): Promise<string[]> {
  const played = await db
    .select({ id: uploads.id, storedName: uploads.storedName })
    .from(uploads)
    .where(isNotNull(uploads.playedAt));
  const deleted: string[] = [];
  for (const row of played) {
    if (!referenced.has(row.id) && (await deleteUpload(db, dataDir, row))) deleted.push(row.id);
  }
  return deleted;
}
