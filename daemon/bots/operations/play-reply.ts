/** The receipt for a command that started playback: what plays now, or why the asked-for song did not. */
import { type Phrase, say } from '../../../shared/i18n/phrases';
import type { BotContext } from '../bot-context';
import type { PlayOutcome } from '../bot-player';
import { playFailurePhrases } from '../play-failure';
import type { PlayableSong } from '../playable-song';
import { done, type ReceiptReply, type Said, unsuccessful } from './reply-builders';

/**
 * `wanted` is the song the caller asked for, when there was one; `receipt` words the success
 * (`Now playing`, `Skipped to`).
 */
export function playReply(
  ctx: BotContext,
  outcome: PlayOutcome,
  receipt: (song: PlayableSong) => Said,
  wanted?: PlayableSong,
): ReceiptReply {
  ctx.changed(true);
  const played = outcome.song;
  if (played && (wanted === undefined || played === wanted)) return done(receipt(played));
  const parts: Phrase[] = outcome.failures.slice(0, 1).flatMap(playFailurePhrases);
  if (outcome.stopped) parts.push(say.playbackStopped());
  if (played) parts.push(say.nowPlaying(played));
  if (parts.length === 0) parts.push(say.endOfQueue());
  return unsuccessful(parts);
}
