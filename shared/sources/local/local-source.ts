/**
 * The `local` source: a song id is an upload id, and its audio is the uploaded file under
 * `DATA_DIR/uploads`, named by the upload row, with the loudness the row keeps where it has one.
 */
import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import { err, ok, type Result } from '../../result';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import { storedLoudness } from './stored-loudness';

export const UPLOADS_DIR = 'uploads';

export class LocalSource implements MusicSource {
  readonly platform = 'local' as const;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
  ) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const [row] = await this.db
      .select({
        storedName: uploads.storedName,
        originalName: uploads.originalName,
        loudnessLufs: uploads.loudnessLufs,
        loudnessPeakDb: uploads.loudnessPeakDb,
        loudnessSource: uploads.loudnessSource,
      })
      .from(uploads)
      .where(eq(uploads.id, song.id))
      .limit(1);
    if (!row) return err(`the uploaded file ${song.id} no longer exists`);
    // The stored name comes from our own upload handler, but a path must never leave the uploads folder.
    const path = join(this.dataDir, UPLOADS_DIR, basename(row.storedName));
    try {
      await access(path);
    } catch {
      return err(`the uploaded file ${row.originalName} is missing on disk`);
    }
    const loudness = storedLoudness(row);
    return ok({ input: { kind: 'file', path }, ...(loudness && { loudness }) });
  }
}
