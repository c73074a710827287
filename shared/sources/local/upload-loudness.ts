/**
 * Measures the loudness of uploads that carry no loudness tags, after the upload has been answered (a
 * long file takes many seconds), and stores the figure with the upload (issue 39). One file at a time:
 * a burst of uploads must not take every core from the bots. Until a figure is stored the upload has
 * none, and a bot that plays it meanwhile measures it as it plays, as for any stream.
 *
 * The upload may be deleted while it waits or is measured (played and forgotten, evicted over the
 * quota): ffmpeg then fails to open it or still reads the open file, and storing the figure touches
 * no row. Either way nothing is kept and nothing fails.
 */
import { basename, join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import { logger } from '../../logger';
import { UPLOADS_DIR } from './local-source';
import { measureLoudness } from './loudness-measure';
import { loudnessColumns } from './stored-loudness';

const log = logger('uploads');

/** The upload row's fields that name its file. */
export interface UploadToMeasure {
  id: string;
  storedName: string;
}

export class UploadLoudnessMeter {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
  ) {}

  /** Queues the measurement; the caller does not wait for it. */
  measureLater(ffmpeg: string, upload: UploadToMeasure): void {
    this.queue = this.queue.then(() =>
      this.measure(ffmpeg, upload).catch((error: unknown) =>
        log.warn({ err: error, uploadId: upload.id }, 'could not store an upload’s loudness'),
      ),
    );
  }

  /** Settles once every measurement queued so far has ended. */
  idle(): Promise<void> {
    return this.queue;
  }

  private async measure(ffmpeg: string, { id, storedName }: UploadToMeasure): Promise<void> {
    const measured = await measureLoudness(ffmpeg, join(this.dataDir, UPLOADS_DIR, basename(storedName)));
    if (!measured.ok) {
      // Also what a file deleted meanwhile gets: either way the upload keeps no figure.
      log.info({ uploadId: id, reason: measured.error }, 'an upload’s loudness was not measured');
      return;
    }
    // Silence has no loudness to store.
    if (!measured.value) return;
    await this.db.update(uploads).set(loudnessColumns(measured.value)).where(eq(uploads.id, id));
  }
}
