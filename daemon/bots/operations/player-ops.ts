/**
 * Transport and queue-editing operations (SPEC Player endpoints, rules 2-5): pause, resume, skip, stop,
 * clear, volume, mode, seek, play-at, remove, move.
 */
import type { BotOpArgs, BotOpData } from '../../../shared/bus/bot-ops';
import type { BotReply } from '../../../shared/bus/messages';
import { say } from '../../../shared/i18n/phrases';
import type { BotContext } from '../bot-context';
import { clampVolume } from '../bot-player';
import { playReply } from './play-reply';
import { done, type ReceiptReply, refused } from './reply-builders';
import { withUndo } from './undo-ops';

export function pause(ctx: BotContext): ReceiptReply {
  return ctx.player.pause('user') ? done(say.paused()) : refused(409, say.nothingPlaying());
}

export function resume(ctx: BotContext): ReceiptReply {
  return ctx.player.resume('user') ? done(say.resumed()) : refused(409, say.nothingToResume());
}

export async function next(ctx: BotContext): Promise<ReceiptReply> {
  if (ctx.player.queue.next() === undefined) {
    ctx.player.stopPlayback();
    ctx.changed(true);
    return done(say.endOfQueue());
  }
  return playReply(ctx, await ctx.player.playFromCurrent(), say.skipped);
}

export async function prev(ctx: BotContext): Promise<ReceiptReply> {
  if (ctx.player.queue.prev() === undefined) return done(say.startOfQueue());
  return playReply(ctx, await ctx.player.playFromCurrent(), say.nowPlaying);
}

export function stopPlayback(ctx: BotContext): ReceiptReply {
  ctx.player.stopPlayback();
  return done(say.stopped());
}

export function clear(ctx: BotContext) {
  const { player, queueUndo } = ctx;
  queueUndo.before(player.queue, player.resumePoint);
  player.stopPlayback();
  player.queue.clear();
  const undoToken = queueUndo.after(player.queue);
  ctx.changed(true);
  return withUndo(done(say.cleared()), undoToken);
}

/** Stored first: a volume the database refused is not applied either (the call fails as a whole). */
export async function volume(ctx: BotContext, args: BotOpArgs<'volume'>): Promise<ReceiptReply> {
  const volume = clampVolume(args.volume);
  await ctx.persistVolume(volume);
  const applied = ctx.player.setVolume(volume);
  ctx.changed(false);
  return done(say.volume(applied));
}

/** Stored first, as the volume is; heard at once (within the frames already encoded ahead). */
export async function loudness(ctx: BotContext, args: BotOpArgs<'loudness'>): Promise<ReceiptReply> {
  const setting = { ...ctx.loudness, ...args };
  await ctx.setLoudness(setting);
  ctx.changed(false);
  return done(setting.enabled ? say.loudnessOn(setting.targetLufs) : say.loudnessOff());
}

export async function autoplay(ctx: BotContext, args: BotOpArgs<'autoplay'>): Promise<ReceiptReply> {
  await ctx.setAutoplay(args.mode);
  ctx.changed(false);
  return done(args.mode === 'related' ? say.autoplayOn() : say.autoplayOff());
}

export async function crossfade(ctx: BotContext, args: BotOpArgs<'crossfade'>): Promise<ReceiptReply> {
  await ctx.setCrossfade(args.seconds);
  ctx.changed(false);
  return done(args.seconds > 0 ? say.crossfadeOn(args.seconds) : say.crossfadeOff());
}

export async function mode(ctx: BotContext, args: BotOpArgs<'mode'>): Promise<ReceiptReply> {
  await ctx.persistMode(args.mode);
  ctx.player.queue.setMode(args.mode);
  ctx.changed(false);
  return done(say.mode(args.mode));
}

export function seek(ctx: BotContext, args: BotOpArgs<'seek'>): BotReply<BotOpData<'seek'>> {
  const seekOffset = ctx.player.seek(args.position);
  if (seekOffset === undefined) return refused(409, say.nothingPlaying());
  if (seekOffset === 'live') return refused(409, say.liveCannotSeek());
  return done(say.seeked(seekOffset), { seekOffset });
}

/** The index is checked before anything stops (SPEC rule 5); playing needs a connection (rule 9). */
export async function playAt(ctx: BotContext, args: BotOpArgs<'playAt'>): Promise<ReceiptReply> {
  const { queue } = ctx.player;
  if (args.index >= queue.size) return refused(400, say.indexOutOfRange(queue.size));
  if (!ctx.connected) return refused(409, say.notConnected());
  queue.playAt(args.index);
  return playReply(ctx, await ctx.player.playFromCurrent(), say.nowPlaying);
}

/** Removing the song that plays skips to the next one. */
export async function remove(ctx: BotContext, args: BotOpArgs<'remove'>): Promise<ReceiptReply> {
  const { player } = ctx;
  const removed = player.queue.remove(args.index);
  if (!removed.ok) return refused(400, say.indexOutOfRange(player.queue.size));
  if (player.nowPlaying?.song === removed.value) {
    player.stopPlayback();
    if (ctx.connected && player.queue.next() !== undefined) await player.playFromCurrent();
  }
  ctx.changed(true);
  return done(say.removed(removed.value));
}

export function move(ctx: BotContext, args: BotOpArgs<'move'>): ReceiptReply {
  const moved = ctx.player.queue.move(args.from, args.to);
  if (!moved.ok) return refused(400, say.indexOutOfRange(ctx.player.queue.size));
  ctx.changed(true);
  return done(say.moved(moved.value, args.to + 1));
}
