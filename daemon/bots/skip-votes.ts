/**
 * The votes to skip what plays now: one per voter (by identity: a voice-server uid or a web account),
 * counted for one play only, so a new song (or the same song started again) begins with none. Who may
 * vote and what a passing vote does belong to the vote op (operations/vote-skip.ts); this only counts.
 */
import type { SkipTally } from '../../shared/domain/schemas';

export interface Voter {
  /** `channel`: a voice-server client in the bot's channel (id = its uid); `web`: an account (its id). */
  kind: 'channel' | 'web';
  id: string;
}

/**
 * Votes that skip with `people` able to vote: their `ratio` share, at least one. The small epsilon keeps
 * float products such as 0.7 × 10 = 7.000000000000001 from needing a vote too many.
 */
export function votesNeeded(people: number, ratio: number): number {
  return Math.max(1, Math.ceil(ratio * people - 1e-9));
}

export class SkipVotes {
  /** The play the votes are for (BotPlayer's NowPlaying: a new object for every play). */
  private play: object | undefined;
  private readonly voters = new Map<string, Voter>();

  /** Adds `voter`'s vote against `play`; false when they already voted against it. */
  cast(play: object, voter: Voter): boolean {
    const voters = this.votesFor(play);
    const key = `${voter.kind}:${voter.id}`;
    if (voters.has(key)) return false;
    voters.set(key, voter);
    return true;
  }

  /**
   * The tally against `play` (none while nothing plays). Web voters count as people too: they listen
   * without being in the channel.
   */
  tally(play: object | undefined, channelPeople: number, ratio: number): SkipTally {
    if (!play) return { votes: 0, needed: 0 };
    const voters = [...this.votesFor(play).values()];
    const webVoters = voters.filter((v) => v.kind === 'web').length;
    return { votes: voters.length, needed: votesNeeded(channelPeople + webVoters, ratio) };
  }

  /** A channel voter who is no longer among `present` (uids) clears every vote; true when it did. */
  clearIfVoterLeft(present: ReadonlySet<string>): boolean {
    const left = [...this.voters.values()].some((v) => v.kind === 'channel' && !present.has(v.id));
    if (left) this.voters.clear();
    return left;
  }

  private votesFor(play: object): Map<string, Voter> {
    if (play !== this.play) {
      this.play = play;
      this.voters.clear();
    }
    return this.voters;
  }
}
