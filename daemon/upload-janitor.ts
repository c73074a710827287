/**
 * Deletes uploaded files once they have been played and no bot's queue holds them any more (SPEC
 * "Local upload"). A play marks the upload; a little after plays and queue changes settle, one sweep
 * gathers every bot's queue (this daemon's directly, others' over the bus, offline ones from their
 * saved snapshot) and deletes what nobody references. If any bot cannot answer, nothing is deleted:
 * keeping a file too long is harmless, deleting a queued one is not.
 */

import { requestOp } from '../shared/bus/bot-request';
import type { Bus } from '../shared/bus/bus';
import { BusError } from '../shared/bus/bus';
import type { Actor } from '../shared/bus/messages';
import type { Db } from '../shared/db/client';
import { bots } from '../shared/db/schema';
import type { Logger } from '../shared/logger';
import {
  collectPlayedUploads,
  markUploadPlayed,
  uploadsInQueueSnapshots,
} from '../shared/sources/local/upload-retention';

/** What bots tell the janitor. */
export interface UploadEvents {
  played(uploadId: string): void;
  queuesChanged(): void;
}

export const SWEEP_DELAY_MS = 30_000;
const JANITOR: Actor = { id: 'upload-janitor', username: 'upload-janitor', role: 'admin' };

export interface UploadJanitorDeps {
  db: Db;
  bus: Bus;
  dataDir: string;
  log: Logger;
  /** The queues of the bots this daemon runs, by bot id (local song ids only matter). */
  ownQueues: () => Map<string, readonly { id: string; platform: string }[]>;
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
    const referenced = await this.referencedUploads();
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

  private async referencedUploads(): Promise<Set<string> | undefined> {
    const referenced = await uploadsInQueueSnapshots(this.deps.db);
    const own = this.deps.ownQueues();
    const rows = await this.deps.db.select({ id: bots.id }).from(bots);
    for (const { id } of rows) {
      const queue = own.get(id) ?? (await this.remoteQueue(id));
      if (queue === 'unknown') return undefined;
      for (const song of queue) if (song.platform === 'local') referenced.add(song.id);
    }
    return referenced;
  }

  /** Another daemon's bot: its queue, [] when nobody runs it (queues live only while run), or unknown. */
  private async remoteQueue(botId: string) {
    try {
      const reply = await requestOp(this.deps.bus, botId, 'queue', {}, JANITOR);
      return reply.data?.queue ?? 'unknown';
    } catch (error) {
      if (error instanceof BusError && error.failure === 'no-responders') return [];
      return 'unknown' as const;
    }
  }
}
