/**
 * The queue as it was before a play replaced it (a single-song play without `playKeepsQueue`, a list
 * loaded with `replace`) or `clear` emptied it, so the person who did it can take it back (DECISIONS:
 * "offers Undo when it clears"). One step deep, in memory: the next replacement takes its place, and
 * it is given back only under its token and only while the queue that replaced it is unchanged (no
 * song added, removed or moved since), so an Undo never throws away what someone queued after it.
 * Its songs still count as queued (upload retention), or the uploads it lists would be deleted while
 * it can still come back.
 */
import { randomBytes } from 'node:crypto';
import type { ResumePoint } from './bot-player';
import type { PlayableSong } from './playable-song';
import type { SongQueue } from './queue';

export interface ReplacedQueue {
  songs: PlayableSong[];
  currentIndex: number | null;
  /** Where the current song was, when one played (or was paused). */
  resume: ResumePoint | undefined;
}

interface Held extends ReplacedQueue {
  token: string;
  /** The entry keys of the queue that replaced it, in order: any edit since changes them. */
  replacedBy: string;
}

const entryKeys = (queue: SongQueue<PlayableSong>): string =>
  queue
    .keyedSongs()
    .map(({ key }) => key)
    .join(',');

export class QueueUndo {
  private held: Held | undefined;
  /** Taken before the replacement, committed after it (a replacement that did not happen keeps nothing). */
  private pending: ReplacedQueue | undefined;

  /** Remembers the queue about to be replaced; an empty queue has nothing to give back. */
  before(queue: SongQueue<PlayableSong>, resume: ResumePoint | undefined): void {
    const { songs, currentIndex } = queue.snapshot();
    this.pending = songs.length > 0 ? { songs, currentIndex, resume } : undefined;
  }

  /**
   * The replacement happened: what was remembered can be given back, under the token answered. An
   * earlier replacement can no longer be (the queue it would check has gone), even when this one
   * replaced an empty queue and keeps nothing.
   */
  after(queue: SongQueue<PlayableSong>): string | undefined {
    const replaced = this.pending;
    this.pending = undefined;
    this.held = undefined;
    if (!replaced) return undefined;
    this.held = { ...replaced, token: randomBytes(9).toString('base64url'), replacedBy: entryKeys(queue) };
    return this.held.token;
  }

  /** The replaced queue, once, when `token` names it and the queue that replaced it is as it was. */
  take(token: string, queue: SongQueue<PlayableSong>): ReplacedQueue | undefined {
    const held = this.held;
    if (!held || held.token !== token || held.replacedBy !== entryKeys(queue)) return undefined;
    this.held = undefined;
    return { songs: held.songs, currentIndex: held.currentIndex, resume: held.resume };
  }

  /** The songs an Undo could still bring back: none once the queue that replaced them was edited. */
  songs(queue: SongQueue<PlayableSong>): readonly PlayableSong[] {
    return this.held && this.held.replacedBy === entryKeys(queue) ? this.held.songs : [];
  }

  forget(): void {
    this.held = undefined;
    this.pending = undefined;
  }
}
