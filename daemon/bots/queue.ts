/**
 * One bot's play queue: the songs, which one is current, and what plays next under each play mode.
 * Pure and synchronous (no I/O, no clock); randomness comes from an injectable `random()` so tests can
 * seed it. The queue does not look inside songs, so it is generic over the song type. It has no lock
 * of its own: the daemon runs each bot's commands one at a time (bot-runtime.ts, one SerialExecutor per
 * bot), which is what keeps SPEC's queue-mutating sections from interleaving.
 *
 * Play modes, exactly:
 * - `seq`: songs in order; `next()` after the last song returns undefined (playback stops) and leaves
 *   no current song. `prev()` on the first song returns undefined and keeps it current.
 * - `loop`: songs in order; after the last comes the first, and `prev()` on the first goes to the last.
 * - `random`: each `next()` picks uniformly among the songs not yet played in this round (the current
 *   song counts as played); when every song has played, `next()` returns undefined (playback stops).
 * - `rloop`: like `random`, but when a round is complete a new one starts at once, avoiding the song
 *   that just played when there is another; it never stops by itself.
 * In the random modes `prev()` walks back through the songs actually played (skipping removed ones).
 * In every mode, songs added with `insertNext` play before any other choice, in the order given; a
 * jump to another song (`playAt`) keeps them next: they move to right after the song jumped to, so
 * "Next" goes on from there instead of back to where the jump left.
 * Removing the current song leaves no current song; `next()` then continues where it was (in `seq`
 * and `loop` with the song that moved into its place).
 *
 * `upcoming()` names the song `next()` would move to without moving (a random pick is made then and
 * kept for that `next()`), so the player can start it ahead and join it to the current one; every
 * change bumps `revision`, which tells the player whether what it started ahead is still what comes.
 */
import type { PlayMode } from '../../shared/domain/constants';
import { err, ok, type Result } from '../../shared/result';

const HISTORY_LIMIT = 500;

export interface QueueSnapshot<TSong> {
  songs: TSong[];
  /** Index of the current song, or null when nothing is current. */
  currentIndex: number | null;
  mode: PlayMode;
}

export interface SongQueueOptions {
  mode?: PlayMode;
  /** Uniform in [0, 1), like Math.random. */
  random?: () => number;
}

interface Entry<TSong> {
  key: number;
  song: TSong;
}

/** The song `next()` moves to: its index, and whether a new random round starts with it (rloop). */
interface Choice {
  index: number;
  newRound: boolean;
}

export class SongQueue<TSong> {
  private entries: Entry<TSong>[] = [];
  private nextKey = 0;
  /** Index of the current song, or, when `hasCurrent` is false, of the song before the gap it left. */
  private position = -1;
  private hasCurrent = false;
  private playMode: PlayMode;
  private readonly random: () => number;
  /** Keys played in the current random round. */
  private playedInRound = new Set<number>();
  /** Keys in the order they became current, for `prev()` in the random modes. */
  private history: number[] = [];
  /** Keys queued with `insertNext`, played before any other choice. */
  private upNext: number[] = [];
  /** The random pick `upcoming()` made, which `next()` keeps to; cleared by any change. */
  private chosen: { key: number; newRound: boolean } | undefined;
  private changes = 0;

  constructor(options: SongQueueOptions = {}) {
    this.playMode = options.mode ?? 'seq';
    this.random = options.random ?? Math.random;
  }

  get mode(): PlayMode {
    return this.playMode;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Grows with every change to the songs, the current one or the mode. */
  get revision(): number {
    return this.changes;
  }

  /** Switching modes starts a fresh random round, with the current song counted as played. */
  setMode(mode: PlayMode): void {
    this.changed();
    this.playMode = mode;
    this.playedInRound = new Set(this.hasCurrent ? [this.keyAt(this.position)] : []);
  }

  current(): TSong | undefined {
    return this.hasCurrent ? this.entries[this.position]?.song : undefined;
  }

  currentIndex(): number | null {
    return this.hasCurrent ? this.position : null;
  }

  /** The current entry's key, undefined when nothing is current. */
  currentKey(): number | undefined {
    return this.hasCurrent ? this.entries[this.position]?.key : undefined;
  }

  /** Moves to the song that plays next under the mode; undefined means playback stops. */
  next(): TSong | undefined {
    const choice = this.choose();
    this.changed();
    if (!choice) return this.stop();
    if (choice.newRound) this.playedInRound = new Set();
    return this.makeCurrent(choice.index);
  }

  /** The song `next()` would move to now, with its key; undefined when playback would stop. */
  upcoming(): { key: number; song: TSong } | undefined {
    const choice = this.choose();
    return choice && this.entries[choice.index];
  }

  /** Moves back one song; undefined (current unchanged) when there is nothing before it. */
  prev(): TSong | undefined {
    this.changed();
    if (this.entries.length === 0) return undefined;
    // Without a current song, `position` already is the song before the gap.
    const before = this.hasCurrent ? this.position - 1 : this.position;
    switch (this.playMode) {
      case 'seq':
        return before >= 0 ? this.makeCurrent(before) : undefined;
      case 'loop':
        return this.makeCurrent(before >= 0 ? before : this.entries.length - 1);
      case 'random':
      case 'rloop':
        return this.previousFromHistory();
    }
  }

  /** Makes the song at `index` current; songs still waiting to play next follow it. */
  playAt(index: number): Result<TSong> {
    if (!this.validIndex(index))
      return err(`index ${index} is out of range (queue has ${this.entries.length} songs)`);
    this.changed();
    const song = this.makeCurrent(index);
    this.moveUpNextAfterCurrent();
    return ok(song);
  }

  /** Removes the song at `index` and returns it. */
  remove(index: number): Result<TSong> {
    const entry = this.validIndex(index) ? this.entries[index] : undefined;
    if (!entry) return err(`index ${index} is out of range (queue has ${this.entries.length} songs)`);
    this.changed();
    this.entries.splice(index, 1);
    if (index === this.position && this.hasCurrent) {
      this.hasCurrent = false;
      this.position--;
    } else if (index <= this.position) {
      this.position--;
    }
    this.forget(entry.key);
    return ok(entry.song);
  }

  /** Moves the song at `from` to index `to` and returns it; the current song stays current. */
  move(from: number, to: number): Result<TSong> {
    const entry = this.validIndex(from) ? this.entries[from] : undefined;
    if (!entry || !this.validIndex(to))
      return err(
        `index ${this.validIndex(from) ? to : from} is out of range (queue has ${this.entries.length} songs)`,
      );
    this.changed();
    const anchorKey = this.entries[this.position]?.key;
    this.entries.splice(from, 1);
    this.entries.splice(to, 0, entry);
    if (anchorKey !== undefined) this.position = this.indexOfKey(anchorKey);
    return ok(entry.song);
  }

  clear(): void {
    this.changed();
    this.entries = [];
    this.position = -1;
    this.hasCurrent = false;
    this.playedInRound.clear();
    this.history = [];
    this.upNext = [];
  }

  /** Inserts right after the current song and returns the index of the first one inserted. */
  insertAfterCurrent(songs: readonly TSong[]): number {
    this.changed();
    const index = this.position + 1;
    this.entries.splice(index, 0, ...songs.map((song) => this.entry(song)));
    return index;
  }

  /**
   * Inserts right after the current song and makes these the next songs `next()` returns, in every
   * mode. Returns the index of the first one inserted.
   */
  insertNext(songs: readonly TSong[]): number {
    const index = this.insertAfterCurrent(songs);
    const keys = this.entries.slice(index, index + songs.length).map((entry) => entry.key);
    this.upNext.unshift(...keys);
    return index;
  }

  /** Adds to the end and returns the index of the first one added. */
  append(songs: readonly TSong[]): number {
    this.changed();
    const index = this.entries.length;
    this.entries.push(...songs.map((song) => this.entry(song)));
    return index;
  }

  /**
   * The songs with their keys: a key names one entry for as long as it stays queued, so two copies of
   * the same song can be told apart (which one is current, which one a client means).
   */
  keyedSongs(): { key: number; song: TSong }[] {
    return this.entries.map(({ key, song }) => ({ key, song }));
  }

  /** The key of the entry holding exactly this song object, if it is still queued. */
  keyOf(song: TSong): number | undefined {
    return this.entries.find((entry) => entry.song === song)?.key;
  }

  snapshot(): QueueSnapshot<TSong> {
    return {
      songs: this.entries.map((entry) => entry.song),
      currentIndex: this.currentIndex(),
      mode: this.playMode,
    };
  }

  private entry(song: TSong): Entry<TSong> {
    return { key: this.nextKey++, song };
  }

  private validIndex(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.entries.length;
  }

  private keyAt(index: number): number {
    const entry = this.entries[index];
    if (!entry) throw new Error(`no queue entry at ${index}`);
    return entry.key;
  }

  private indexOfKey(key: number): number {
    return this.entries.findIndex((entry) => entry.key === key);
  }

  private makeCurrent(index: number, recordHistory = true): TSong {
    const entry = this.entries[index];
    if (!entry) throw new Error(`no queue entry at ${index}`);
    this.position = index;
    this.hasCurrent = true;
    this.playedInRound.add(entry.key);
    if (recordHistory) {
      this.history.push(entry.key);
      // rloop runs for days; `prev()` only ever needs the recent past.
      if (this.history.length > HISTORY_LIMIT) this.history.splice(0, this.history.length - HISTORY_LIMIT);
    }
    this.upNext = this.upNext.filter((key) => key !== entry.key);
    return entry.song;
  }

  /** Puts the songs waiting in `upNext` right after the current one, in the order they will play. */
  private moveUpNextAfterCurrent(): void {
    if (this.upNext.length === 0) return;
    const currentKey = this.keyAt(this.position);
    const waiting = new Set(this.upNext);
    const byKey = new Map(this.entries.map((entry) => [entry.key, entry]));
    this.entries = this.entries.filter((entry) => !waiting.has(entry.key));
    this.position = this.indexOfKey(currentKey);
    const following = this.upNext.flatMap((key) => byKey.get(key) ?? []);
    this.entries.splice(this.position + 1, 0, ...following);
  }

  private stop(): undefined {
    this.hasCurrent = false;
    this.position = this.entries.length - 1;
    return undefined;
  }

  private changed(): void {
    this.changes++;
    this.chosen = undefined;
  }

  /** What `next()` moves to, without moving: waiting songs first, then the mode's choice. */
  private choose(): Choice | undefined {
    // `forget` takes removed songs out of upNext, so its keys are always queued.
    const waiting = this.upNext[0];
    if (waiting !== undefined) return { index: this.indexOfKey(waiting), newRound: false };
    if (this.entries.length === 0) return undefined;
    switch (this.playMode) {
      case 'seq':
        return this.position + 1 < this.entries.length
          ? { index: this.position + 1, newRound: false }
          : undefined;
      case 'loop':
        return { index: (this.position + 1) % this.entries.length, newRound: false };
      case 'random':
        return this.chooseRandom(false);
      case 'rloop':
        return this.chooseRandom(false) ?? this.chooseRandom(true);
    }
  }

  /**
   * A random song not played in this round, or (`newRound`) of a new round: then any song but the one
   * that just ended, which may not open it (it would play twice in a row) but stays in it for later.
   * The pick is kept until the next change, so `upcoming()` and `next()` agree.
   */
  private chooseRandom(newRound: boolean): Choice | undefined {
    const kept = this.chosen;
    if (kept && kept.newRound === newRound) return { index: this.indexOfKey(kept.key), newRound };
    const justPlayed = this.hasCurrent && this.entries.length > 1 ? this.keyAt(this.position) : undefined;
    const candidates = this.entries.flatMap((entry, index) =>
      (newRound ? entry.key === justPlayed : this.playedInRound.has(entry.key)) ? [] : [index],
    );
    const index = candidates[Math.floor(this.random() * candidates.length)];
    if (index === undefined) return undefined;
    this.chosen = { key: this.keyAt(index), newRound };
    return { index, newRound };
  }

  private previousFromHistory(): TSong | undefined {
    const currentKey = this.hasCurrent ? this.keyAt(this.position) : undefined;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const key = this.history[i];
      if (key === undefined || key === currentKey) continue;
      const index = this.indexOfKey(key);
      if (index >= 0) {
        this.history.length = i + 1;
        return this.makeCurrent(index, false);
      }
    }
    return undefined;
  }

  private forget(key: number): void {
    this.playedInRound.delete(key);
    this.history = this.history.filter((entry) => entry !== key);
    this.upNext = this.upNext.filter((entry) => entry !== key);
  }
}
