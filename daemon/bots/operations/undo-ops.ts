/** Undo of a queue replacement (queue-undo.ts): the token a replacing op answers, and the op that uses it. */
import type { BotOpArgs } from '../../../shared/bus/bot-ops';
import type { BotReply } from '../../../shared/bus/messages';
import { say } from '../../../shared/i18n/phrases';
import type { BotContext } from '../bot-context';
import { playReply } from './play-reply';
import { done, type ReceiptReply, refused } from './reply-builders';

/** A replacing op's receipt with the token that gives the replaced queue back, when there was one. */
export const withUndo = (
  reply: ReceiptReply,
  undoToken: string | undefined,
): BotReply<{ undoToken: string } | undefined> => (undoToken ? { ...reply, data: { undoToken } } : reply);

/**
 * The replaced queue comes back as it was: its songs, its current song at the position it had (paused
 * if it was paused); what replaced it goes. Nothing plays again when nothing played before.
 */
export async function undoReplace(
  ctx: BotContext,
  { token }: BotOpArgs<'undoReplace'>,
): Promise<ReceiptReply> {
  const { player } = ctx;
  const replaced = ctx.queueUndo.take(token, player.queue);
  if (!replaced) return refused(409, say.nothingToUndo());
  player.stopPlayback();
  player.queue.clear();
  player.queue.append(replaced.songs);
  const restored = say.queueRestored(replaced.songs.length);
  if (replaced.currentIndex === null) {
    ctx.changed(true);
    return done(restored);
  }
  player.queue.playAt(replaced.currentIndex);
  if (!replaced.resume) {
    ctx.changed(true);
    return done(restored);
  }
  return playReply(ctx, await player.resumeFrom(replaced.resume), (song) => [restored, say.nowPlaying(song)]);
}
