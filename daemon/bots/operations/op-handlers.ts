/**
 * The handler of every operation in the operation table (shared/bus/bot-ops.ts): a missing handler,
 * or one whose reply data does not fit the op's reply schema, is a type error. `runOp` parses the
 * arguments with the table's schema and refuses ops that start audio while the bot is disconnected
 * (SPEC Player rule 9: 409, queue untouched).
 */
import {
  type BotOp,
  type BotOpArgs,
  type BotOpData,
  parseOpArgs,
  startsAudio,
} from '../../../shared/bus/bot-ops';
import type { BotReply } from '../../../shared/bus/messages';
import { say } from '../../../shared/i18n/phrases';
import type { BotContext } from '../bot-context';
import { addSong, loadSongs, playNextSong, playNowSong, playSong } from './enqueue-ops';
import {
  autoplay,
  clear,
  crossfade,
  loudness,
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
import { answer, refused } from './reply-builders';
import { undoReplace } from './undo-ops';
import { voteSkip } from './vote-skip';

type OpReply<Op extends BotOp> = BotReply<BotOpData<Op>>;
type Handler<Op extends BotOp> = (ctx: BotContext, args: BotOpArgs<Op>) => OpReply<Op> | Promise<OpReply<Op>>;

const HANDLERS: { [Op in BotOp]: Handler<Op> } = {
  status: (ctx) => answer(ctx.status()),
  start: (ctx) => ctx.start(),
  stop: (ctx) => ctx.stop(),
  queue: (ctx) => answer({ queue: ctx.queueView(), status: ctx.status() }),
  heldSongs: (ctx) => answer({ songs: ctx.heldSongs().map(({ id, platform }) => ({ id, platform })) }),
  elapsed: (ctx) => answer({ elapsed: ctx.status().elapsed }),
  listen: (ctx, { hub, listeners }) => {
    ctx.listenFeed.report(hub, listeners);
    // A report between processes: nobody reads a receipt for it.
    return { ok: true, status: 200 };
  },
  playSong,
  playNowSong,
  playNextSong,
  addSong,
  loadSongs,
  undoReplace,
  pause,
  resume,
  next,
  voteSkip,
  prev,
  stopPlayback,
  clear,
  volume,
  loudness,
  autoplay,
  crossfade,
  mode,
  seek,
  playAt,
  remove,
  move,
};

export function runOp<Op extends BotOp>(
  ctx: BotContext,
  op: Op,
  rawArgs: unknown,
): OpReply<Op> | Promise<OpReply<Op>> {
  const parsed = parseOpArgs(op, rawArgs);
  if (!parsed.ok) return refused(400, say.badRequest(parsed.error));
  if (startsAudio(op) && !ctx.connected) return refused(409, say.notConnected());
  const handler: Handler<Op> = HANDLERS[op];
  return handler(ctx, parsed.args);
}
