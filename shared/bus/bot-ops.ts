/**
 * The operation table: the whole contract between the api and the daemon for `bot.<id>.cmd`, in one
 * place. Per operation: the schema of its arguments, the schema of the `data` its reply carries, how
 * long the api waits for it, and its properties. Both sides derive everything from here: the daemon
 * parses `args`, answers `readOnly` ops at once, refuses `startsAudio` ops while disconnected (the
 * answer that decides a play), and has a handler for every op (a missing one is a type error); the
 * api's bot client parses replies with `reply`, and checks the connection of a bot it has not heard
 * connected before a `startsAudio` op whose arguments a music platform must first give.
 *
 * Every reply travels as a BotReply (messages.ts): `status` is the HTTP status to answer with, `message`
 * the receipt (shared/receipts.ts), `data` the op's result, parsed with `reply`.
 */
import { z } from 'zod';
import { BOT_START_DEADLINE_MS } from '../domain/constants';
import {
  AutoplayModeSchema,
  BotStatusSchema,
  CrossfadeSecondsSchema,
  LoudnessChangeSchema,
  PlayModeSchema,
  QueuedSongSchema,
  SkipTallySchema,
  SongSchema,
} from '../domain/schemas';

interface OpSpec<Args extends z.ZodType, Reply extends z.ZodType> {
  args: Args;
  /** The shape of the reply's `data`; `z.undefined()` when the receipt is the whole answer. */
  reply: Reply;
  /** How long the api waits for the reply; unset means the bus deadline (`BUS_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Only reads: answered at once instead of waiting behind a running command. */
  readOnly?: boolean;
  /**
   * Starts audio, so it needs a connection: refused with 409 and the "not connected" receipt while the
   * bot is disconnected (SPEC Player rule 9), the queue untouched.
   */
  startsAudio?: boolean;
}

const op = <Args extends z.ZodType, Reply extends z.ZodType>(spec: OpSpec<Args, Reply>) => spec;

const none = z.object({}).strict();
const receiptOnly = z.undefined();
/** A song to enqueue and who asked for it (username, the guest label, or a chat nickname). */
const songArgs = z.object({ song: SongSchema, requestedBy: z.string().min(1).max(64) }).strict();
const songOp = op({ args: songArgs, reply: receiptOnly, startsAudio: true });
/** The answer of an op that replaced the queue: the token an Undo gives back (queue-undo.ts). */
const replacedQueue = z.object({ undoToken: z.string().min(1).max(64) }).optional();
const index = z.number().int().min(0);

export const QueueReplySchema = z.object({ queue: z.array(QueuedSongSchema), status: BotStatusSchema });

export const BOT_OPS = {
  status: op({ args: none, reply: BotStatusSchema, readOnly: true }),
  queue: op({ args: none, reply: QueueReplySchema, readOnly: true }),
  /**
   * Every song the bot may still play: its queue and the queue an Undo could bring back (upload
   * retention keeps their files).
   */
  heldSongs: op({
    args: none,
    reply: z.object({ songs: z.array(z.object({ id: z.string(), platform: z.string() })) }),
    readOnly: true,
  }),
  elapsed: op({ args: none, reply: z.object({ elapsed: z.number() }), readOnly: true }),

  /**
   * An api process (`hub`, its own id) reports how many of its browsers listen along; the bot publishes
   * its frames on `bot.<id>.listen` while any hub reports listeners, and forgets a hub that does not
   * renew its report within 6 s.
   */
  listen: op({
    args: z
      .object({ hub: z.string().min(1).max(64), listeners: z.number().int().min(0).max(100_000) })
      .strict(),
    reply: receiptOnly,
    readOnly: true,
  }),

  /**
   * Connect to the voice server and join the channel. The daemon gives up after the SPEC's start
   * deadline (then 500); the api waits a little longer so the daemon's answer is the one that arrives.
   */
  start: op({ args: none, reply: BotStatusSchema, timeoutMs: BOT_START_DEADLINE_MS + 5000 }),
  /** Disconnect and clear the player state; waits for the profile write-back and the server's goodbye. */
  stop: op({ args: none, reply: BotStatusSchema, timeoutMs: 10_000 }),

  /**
   * Clears the queue and plays the song (with `playKeepsQueue`: inserts after current and plays it);
   * a cleared queue can be given back (`undoReplace`).
   */
  playSong: op({ args: songArgs, reply: replacedQueue, startsAudio: true }),
  /** Inserts after the current song and plays it now, keeping the queue. */
  playNowSong: songOp,
  /** Inserts as the next song; when idle, plays it. */
  playNextSong: songOp,
  /** Appends; when idle, plays at once. */
  addSong: songOp,
  /**
   * Loads a list (playlist, album, saved queue, FM). `replace` stops playback first and starts from the
   * first song (a random one in random modes), skipping up to 20 songs that cannot be resolved; an
   * empty list or a load where nothing resolves keeps the previous queue (a replaced one can be given
   * back: `undoReplace`). `append` adds to the end.
   */
  loadSongs: op({
    args: z
      .object({
        songs: z.array(SongSchema).max(1000),
        mode: z.enum(['replace', 'append']),
        requestedBy: z.string().min(1).max(64),
        /** What was loaded, for the receipt ("playlist Chill Mix"). */
        label: z.string().max(200),
        /** Songs before filtering to playable ones, when the source filtered (receipt "loaded X of Y"). */
        totalCount: z.number().int().min(0).optional(),
      })
      .strict(),
    reply: replacedQueue,
    startsAudio: true,
  }),
  /**
   * Gives back the queue the play or `clear` that answered `token` replaced, with its current song at
   * the position it had; refused (409) once the queue has been edited since or replaced again.
   */
  undoReplace: op({
    args: z.object({ token: z.string().min(1).max(64) }).strict(),
    reply: receiptOnly,
    startsAudio: true,
  }),
  next: op({ args: none, reply: receiptOnly, startsAudio: true }),
  /**
   * A vote to skip the current song by a voice-server client in the bot's channel (its uid) or a web
   * account (its id); a vote that reaches `voteSkipRatio` skips as `next` does.
   */
  voteSkip: op({
    args: z
      .object({
        voter: z.object({ kind: z.enum(['channel', 'web']), id: z.string().min(1).max(128) }).strict(),
      })
      .strict(),
    reply: SkipTallySchema.extend({ skipped: z.boolean() }),
    startsAudio: true,
  }),
  prev: op({ args: none, reply: receiptOnly, startsAudio: true }),

  pause: op({ args: none, reply: receiptOnly }),
  resume: op({ args: none, reply: receiptOnly }),
  /** Stops playback (the bot stays connected); the queue stays. */
  stopPlayback: op({ args: none, reply: receiptOnly }),
  clear: op({ args: none, reply: replacedQueue }),
  volume: op({ args: z.object({ volume: z.number().min(0).max(100) }).strict(), reply: receiptOnly }),
  mode: op({ args: z.object({ mode: PlayModeSchema }).strict(), reply: receiptOnly }),
  /** Changes the bot's loudness normalization (the fields sent); stored, and heard at once. */
  loudness: op({ args: LoudnessChangeSchema, reply: receiptOnly }),
  /** What the bot does when its queue runs out in order; stored. */
  autoplay: op({ args: z.object({ mode: AutoplayModeSchema }).strict(), reply: receiptOnly }),
  /** The crossfade between songs (seconds, 0: gapless); stored, and used from the next change of song. */
  crossfade: op({ args: z.object({ seconds: CrossfadeSecondsSchema }).strict(), reply: receiptOnly }),
  seek: op({
    args: z.object({ position: z.number().min(0) }).strict(),
    reply: z.object({ seekOffset: z.number() }),
  }),
  playAt: op({ args: z.object({ index }).strict(), reply: receiptOnly }),
  remove: op({ args: z.object({ index }).strict(), reply: receiptOnly }),
  move: op({ args: z.object({ from: index, to: index }).strict(), reply: receiptOnly }),
} as const;

export type BotOp = keyof typeof BOT_OPS;
export type BotOpArgs<Op extends BotOp> = z.infer<(typeof BOT_OPS)[Op]['args']>;
export type BotOpData<Op extends BotOp> = z.infer<(typeof BOT_OPS)[Op]['reply']>;

export const BOT_OP_NAMES = Object.keys(BOT_OPS) as BotOp[];
export const isBotOp = (name: string): name is BotOp => Object.hasOwn(BOT_OPS, name);

/** How long the api waits for an op's reply when it needs longer than the bus deadline. */
export const timeoutOf = (name: BotOp): number | undefined =>
  (BOT_OPS[name] as OpSpec<z.ZodType, z.ZodType>).timeoutMs;
export const isReadOnly = (name: BotOp): boolean =>
  (BOT_OPS[name] as OpSpec<z.ZodType, z.ZodType>).readOnly === true;
export const startsAudio = (name: BotOp): boolean =>
  (BOT_OPS[name] as OpSpec<z.ZodType, z.ZodType>).startsAudio === true;

/** Parses an op's arguments; the error names each bad field ("volume: Too big"). */
export function parseOpArgs<Op extends BotOp>(
  name: Op,
  raw: unknown,
): { ok: true; args: BotOpArgs<Op> } | { ok: false; error: string } {
  const parsed = BOT_OPS[name].args.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, args: parsed.data as BotOpArgs<Op> };
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ');
  return { ok: false, error: `invalid arguments for ${name}: ${issues}` };
}
