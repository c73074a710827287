/**
 * The handler of every operation in the bus contract (shared/bus/bot-ops.ts), and the dispatch that
 * parses arguments with the contract's schemas and refuses audio-starting operations while the bot is
 * disconnected (SPEC Player rule 9: 409, queue untouched).
 */
import { AUDIO_STARTING_OPS, BOT_OPS, type BotOp, type BotOpArgs } from '../../shared/bus/bot-ops';
import type { BotReply } from '../../shared/bus/messages';
import { receipts } from '../../shared/receipts';
import type { BotContext } from './bot-context';
import { refused } from './bot-reply';
import { addSong, loadSongs, playNextSong, playNowSong, playSong } from './enqueue-ops';
import { toQueuedSong } from './playable-song';
import {
  clear,
  mode,
  move,
  next,
  pause,
  playAt,
  prev,
  remove,
  resume,
  seek,
  stopPlayback,
  volume,
} from './player-ops';

type Handler<Op extends BotOp> = (ctx: BotContext, args: BotOpArgs<Op>) => BotReply | Promise<BotReply>;

const HANDLERS: { [Op in BotOp]: Handler<Op> } = {
  status: (ctx) => ({ ok: true, status: 200, data: ctx.status() }),
  start: (ctx) => ctx.start(),
  stop: (ctx) => ctx.stop(),
  queue: (ctx) => ({
    ok: true,
    status: 200,
    data: { queue: ctx.player.queue.snapshot().songs.map(toQueuedSong), status: ctx.status() },
  }),
  elapsed: (ctx) => ({ ok: true, status: 200, data: { elapsed: ctx.status().elapsed } }),
  playSong,
  playNowSong,
  playNextSong,
  addSong,
  loadSongs,
  pause,
  resume,
  next,
  prev,
  stopPlayback,
  clear,
  volume,
  mode,
  seek,
  playAt,
  remove,
  move,
};

/** Operations that only read: they answer at once instead of waiting behind a running command. */
export const READ_ONLY_OPS: ReadonlySet<BotOp> = new Set(['status', 'queue', 'elapsed']);

export function runOp<Op extends BotOp>(
  ctx: BotContext,
  op: Op,
  rawArgs: unknown,
): BotReply | Promise<BotReply> {
  const parsed = BOT_OPS[op].safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ');
    return refused(400, `invalid arguments for ${op}: ${issues}`);
  }
  if (AUDIO_STARTING_OPS.has(op) && !ctx.connected) return refused(409, receipts.notConnected());
  const handler: Handler<Op> = HANDLERS[op];
  return handler(ctx, parsed.data as BotOpArgs<Op>);
}
