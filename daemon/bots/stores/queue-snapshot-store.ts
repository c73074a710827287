/**
 * The live-queue snapshot of one bot (`savedQueuesEnabled`): written on every queue change while the
 * bot is connected, read back when the daemon starts, deleted on stop and on disconnect.
 *
 * Writes are chained so they land in order, and a burst of changes collapses into one write of the
 * latest queue: only the newest snapshot matters.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../shared/db/client';
import { queueSnapshots } from '../../../shared/db/schema';
import type { Logger } from '../../../shared/logger';
import { type PlayableSong, PlayableSongSchema } from '../playable-song';

export interface QueueSnapshotData {
  songs: PlayableSong[];
  currentIndex: number | null;
  positionSeconds: number;
}

type Pending = { kind: 'save'; data: QueueSnapshotData } | { kind: 'delete' };

const SongsSchema = z.array(PlayableSongSchema);

export class QueueSnapshotStore {
  private pending: Pending | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly botId: string,
    private readonly log: Logger,
  ) {}

  save(data: QueueSnapshotData): void {
    this.schedule({ kind: 'save', data });
  }

  delete(): void {
    this.schedule({ kind: 'delete' });
  }

  /** Resolves once every scheduled write has landed. */
  flush(): Promise<void> {
    return this.writing;
  }

  /** The stored snapshot; a corrupt song list reads as an empty queue. */
  async load(): Promise<QueueSnapshotData | undefined> {
    const row = await this.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, this.botId) });
    if (!row) return undefined;
    const songs = SongsSchema.safeParse(parseJson(row.songs));
    if (!songs.success) {
      this.log.warn('queue snapshot is corrupt; restoring an empty queue');
      return { songs: [], currentIndex: null, positionSeconds: 0 };
    }
    const index = row.currentIndex;
    return {
      songs: songs.data,
      currentIndex: index >= 0 && index < songs.data.length ? index : null,
      positionSeconds: Math.max(0, row.positionSeconds),
    };
  }

  private schedule(next: Pending): void {
    const alreadyQueued = this.pending !== undefined;
    this.pending = next;
    if (alreadyQueued) return;
    this.writing = this.writing.then(() => this.writePending());
  }

  private async writePending(): Promise<void> {
    const next = this.pending;
    this.pending = undefined;
    if (!next) return;
    try {
      if (next.kind === 'delete') {
        await this.db.delete(queueSnapshots).where(eq(queueSnapshots.botId, this.botId));
        return;
      }
      const values = {
        songs: JSON.stringify(next.data.songs),
        currentIndex: next.data.currentIndex ?? -1,
        positionSeconds: Math.floor(next.data.positionSeconds),
        updatedAt: new Date(),
      };
      await this.db
        .insert(queueSnapshots)
        .values({ botId: this.botId, ...values })
        .onConflictDoUpdate({ target: queueSnapshots.botId, set: values });
    } catch (error) {
      this.log.warn({ err: error }, 'could not write the queue snapshot');
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
