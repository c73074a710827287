/**
 * Operations that put songs into the queue: the play-song family and list loads (SPEC Player
 * endpoints and rules 6, 7, 10). Each runs inside the bot's serial section, so none interleave.
 */
import type { BotOpArgs } from '../../../shared/bus/bot-ops';
import { say } from '../../../shared/i18n/phrases';
import type { BotContext } from '../bot-context';
import { MAX_PLAY_ATTEMPTS } from '../bot-player';
import { type PlayableSong, playableSong } from '../playable-song';
import { playReply } from './play-reply';
import { done, type ReceiptReply, unsuccessful } from './reply-builders';
import { withUndo } from './undo-ops';

type SongArgs = BotOpArgs<'playSong'>;

async function playQueued(ctx: BotContext, index: number, wanted: PlayableSong): Promise<ReceiptReply> {
  ctx.player.queue.playAt(index);
  return playReply(ctx, await ctx.player.playFromCurrent(), say.nowPlaying, wanted);
}

export async function playSong(ctx: BotContext, { song, requestedBy }: SongArgs) {
  const entry = playableSong(song, requestedBy);
  const { queue } = ctx.player;
  if (ctx.settings.playKeepsQueue) return playQueued(ctx, queue.insertAfterCurrent([entry]), entry);
  ctx.queueUndo.before(queue, ctx.player.resumePoint);
  queue.clear();
  const index = queue.append([entry]);
  const undoToken = ctx.queueUndo.after(queue);
  return withUndo(await playQueued(ctx, index, entry), undoToken);
}

export function playNowSong(ctx: BotContext, { song, requestedBy }: SongArgs): Promise<ReceiptReply> {
  const entry = playableSong(song, requestedBy);
  return playQueued(ctx, ctx.player.queue.insertAfterCurrent([entry]), entry);
}

export async function playNextSong(ctx: BotContext, { song, requestedBy }: SongArgs): Promise<ReceiptReply> {
  const entry = playableSong(song, requestedBy);
  const index = ctx.player.queue.insertNext([entry]);
  if (!ctx.player.nowPlaying) return playQueued(ctx, index, entry);
  ctx.changed(true);
  return done(say.playingNext(entry));
}

export async function addSong(ctx: BotContext, { song, requestedBy }: SongArgs): Promise<ReceiptReply> {
  const entry = playableSong(song, requestedBy);
  const index = ctx.player.queue.append([entry]);
  if (!ctx.player.nowPlaying) return playQueued(ctx, index, entry);
  ctx.changed(true);
  return done(say.added(entry, index + 1));
}

/**
 * `replace` stops playback first (an empty list too), then looks for the first song that resolves
 * (from the start, or a random one in the random modes), at most MAX_PLAY_ATTEMPTS; only then is the
 * queue replaced, so a list that is empty or where nothing plays leaves the old queue in place.
 */
export async function loadSongs(ctx: BotContext, args: BotOpArgs<'loadSongs'>) {
  const { songs, mode, requestedBy, label, totalCount } = args;
  const { player } = ctx;
  if (mode === 'replace') {
    ctx.queueUndo.before(player.queue, player.resumePoint);
    player.stopPlayback();
  }
  if (songs.length === 0) return unsuccessful(say.emptyList(label));
  const entries = songs.map((song) => playableSong(song, requestedBy));
  const loaded =
    totalCount === undefined
      ? say.loaded(label, entries.length)
      : say.loadedOf(label, entries.length, totalCount);
  if (mode === 'append') {
    const index = player.queue.append(entries);
    if (!player.nowPlaying) {
      player.queue.playAt(index);
      await player.playFromCurrent();
    }
    ctx.changed(true);
    return done(loaded);
  }
  const random = player.queue.mode === 'random' || player.queue.mode === 'rloop';
  const first = random ? Math.floor(Math.random() * entries.length) : 0;
  for (let attempt = 0; attempt < Math.min(entries.length, MAX_PLAY_ATTEMPTS); attempt++) {
    const index = (first + attempt) % entries.length;
    const entry = entries[index];
    if (!entry) continue;
    const stream = await ctx.sources.resolveStream(entry);
    if (!stream.ok) {
      ctx.log.warn({ song: entry.id, reason: stream.error }, 'skipping a song of the list that cannot play');
      continue;
    }
    player.queue.clear();
    player.queue.append(entries);
    const undoToken = ctx.queueUndo.after(player.queue);
    player.queue.playAt(index);
    const outcome = await player.playFromCurrent(0, stream.value);
    return withUndo(
      playReply(ctx, outcome, (song) => [loaded, say.nowPlaying(song)]),
      undoToken,
    );
  }
  ctx.changed(true);
  return unsuccessful(say.nothingPlayable(label));
}
