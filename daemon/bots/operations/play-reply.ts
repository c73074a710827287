/** The receipt for a command that started playback: what plays now, or why the asked-for song did not. */
import { receipts } from '../../../shared/receipts';
import type { BotContext } from '../bot-context';
import type { PlayOutcome } from '../bot-player';
import type { PlayableSong } from '../playable-song';
import { done, type ReceiptReply, unsuccessful } from './reply-builders';

/**
 * `wanted` is the song the caller asked for, when there was one; `receipt` words the success
 * (`Now playing`, `Skipped to`).
 */
export function playReply(
  ctx: BotContext,
  outcome: PlayOutcome,
  receipt: (song: PlayableSong) => string,
  wanted?: PlayableSong,
): ReceiptReply {
  ctx.changed(true);
  const played = outcome.song;
  if (played && (wanted === undefined || played === wanted)) return done(receipt(played));
  const parts = outcome.failures.slice(0, 1).map((f) => receipts.playbackFailed(f.song, f.reason));
  if (outcome.stoppedReason !== undefined) parts.push(receipts.playbackStopped(outcome.stoppedReason));
  if (played) parts.push(receipts.nowPlaying(played));
  if (parts.length === 0) parts.push(receipts.endOfQueue());
  return unsuccessful(parts.join(' '));
}
