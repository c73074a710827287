/**
 * Deletes uploaded files once they have been played and no bot's queue holds them any more (SPEC
 * "Local upload"). A play marks the upload; a little after plays and queue changes settle, one sweep
 * gathers every bot's queue (this daemon's directly, others' over the bus, offline ones from their
 * saved snapshot: shared/bus/queued-uploads.ts, as quota eviction does) and deletes what nobody
 * references. If any bot cannot answer, nothing is deleted: keeping a file too long is harmless,
 * deleting a queued one is not. With `keepUploads` on, played files stay as a library and the sweep
 * deletes nothing; the quota's eviction (on upload, oldest unreferenced first) is then all that
 * removes them.
 */

import type { Bus } from '../shared/bus/bus';
import { type QueuedSong, queuedUploadIds } from '../shared/bus/queued-uploads';
import type { Db } from '../shared/db/client';
import type { Logger } from '../shared/logger';
import { readSettings } from '../shared/settings/settings';
import { collectPlayedUploads, markUploadPlayed } from '../shared/sources/local/upload-retention';

/** What bots tell the janitor. */
export interface UploadEvents {
  played(uploadId: string): void;
  queuesChanged(): void;
}

export const SWEEP_DELAY_MS = 30_000;

export interface UploadJanitorDeps {
  db: Db;
  bus: Bus;
  dataDir: string;
  log: Logger;
  /** The queues of the bots this daemon runs, by bot id (local song ids only matter). */
  ownQueues: () => ReadonlyMap<string, readonly QueuedSong[]>;
  sweepDelayMs?: number;
}

export class UploadJanitor implements UploadEvents {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: UploadJanitorDeps) {}

  played(uploadId: string): void {
    markUploadPlayed(this.deps.db, uploadId)
      .then(() => this.schedule())
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not mark an upload played'));
  }

  queuesChanged(): void {
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Runs one sweep now; answers the deleted upload ids (undefined when a bot could not answer). */
  async sweep(): Promise<string[] | undefined> {
    // Read at each sweep, not cached: a change of the setting applies to the next sweep.
    if ((await readSettings(this.deps.db)).keepUploads) return [];
    const referenced = await queuedUploadIds(this.deps);
    if (!referenced) return undefined;
    return collectPlayedUploads(this.deps.db, this.deps.dataDir, referenced);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sweep().catch((error: unknown) => this.deps.log.warn({ err: error }, 'upload sweep failed'));
    }, this.deps.sweepDelayMs ?? SWEEP_DELAY_MS);
    this.timer.unref();
  }
}
