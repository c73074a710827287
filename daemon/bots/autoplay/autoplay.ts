/**
 * One bot's autoplay: when its queue runs out in order, the song that follows is one like the last
 * (RelatedSongs), never one of the last 50 played. Candidates are fetched a batch at a time and kept
 * here, out of the queue, and only one joins the queue at a time, so a song someone asks for meanwhile
 * is queued after it and plays before any further autoplay song.
 */
import { AUTOPLAY_LABEL } from '../../../shared/domain/constants';
import type { Song } from '../../../shared/domain/schemas';
import type { PlayableSong } from '../playable-song';
import type { RelatedSongs } from './related-songs';

/** Songs of the history autoplay never brings back. */
export const RECENT_PLAYS = 50;
/** Candidates asked for at once (more than one: some are left out as recently played). */
const BATCH = 20;

/** The songs the bot played last, newest first, as `platform:id` keys. */
export type RecentPlays = () => Promise<ReadonlySet<string>>;

const keyOf = (song: Pick<Song, 'platform' | 'id'>) => `${song.platform}:${song.id}`;

export class Autoplay {
  private candidates: Song[] = [];
  /** The song the candidates are like: a new seed (the queue moved on) asks anew. */
  private seedKey: string | undefined;

  constructor(
    private readonly related: RelatedSongs,
    private readonly recentPlays: RecentPlays,
  ) {}

  /** The song to play after `last`, the queue having run out; undefined when there is none to give. */
  async after(last: PlayableSong): Promise<PlayableSong | undefined> {
    const recent = await this.recentPlays();
    const fresh = (song: Song) => !recent.has(keyOf(song)) && keyOf(song) !== keyOf(last);
    // Its own songs lead to more of the same; a song someone asked for starts a new run from it.
    const newRun = last.requestedBy !== AUTOPLAY_LABEL && this.seedKey !== keyOf(last);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt > 0 || newRun || this.candidates.length === 0) await this.ask(last);
      this.candidates = this.candidates.filter(fresh);
      const next = this.candidates.shift();
      if (next) return { ...next, requestedBy: AUTOPLAY_LABEL };
    }
    return undefined;
  }

  private async ask(seed: PlayableSong): Promise<void> {
    const found = await this.related.like(seed, BATCH);
    this.candidates = found.ok ? found.value : [];
    this.seedKey = keyOf(seed);
  }
}
