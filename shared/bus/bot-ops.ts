/**
 * The operations a daemon runs for a bot (`bot.<id>.cmd`), with the argument schema of each. The api
 * builds them from REST calls and chat commands; the daemon parses them with these same schemas.
 *
 * Every reply is a BotReply: `status` is the HTTP status to answer with, `message` the receipt text
 * (shared/receipts.ts), `data` the op's result where it has one:
 *   status, start, stop → BotStatus
 *   queue               → { queue: QueuedSong[], status: BotStatus }
 *   elapsed             → { elapsed: number }
 *   seek                → { seekOffset: number }
 *   everything else     → none (the receipt is the answer)
 *
 * Audio-starting ops on a disconnected bot (AUDIO_STARTING_OPS) answer 409 with the "not connected"
 * receipt and leave the queue untouched; config-only ops work while disconnected.
 */
import { z } from 'zod';
import { PlayModeSchema, QueuedSongSchema, SongSchema } from '../domain/schemas';

const none = z.object({}).strict();
/** A song to enqueue and who asked for it (username, the guest label, or a chat nickname). */
const songArgs = z.object({ song: SongSchema, requestedBy: z.string().min(1).max(64) });

export const BOT_OPS = {
  status: none,
  /** Connect to the voice server and join the channel; 500 when the handshake exceeds 15 s. */
  start: none,
  /** Disconnect and clear the player state. */
  stop: none,
  queue: none,
  elapsed: none,

  /** Clears the queue and plays the song (with `playKeepsQueue`: inserts after current and plays it). */
  playSong: songArgs,
  /** Inserts after the current song and plays it now, keeping the queue. */
  playNowSong: songArgs,
  /** Inserts as the next song; when idle, plays it. */
  playNextSong: songArgs,
  /** Appends; when idle, plays at once. */
  addSong: songArgs,
  /**
   * Loads a list (playlist, album, saved queue). `replace` stops playback first and starts from the
   * first song (a random one in random modes), skipping up to 20 songs that cannot be resolved; an
   * empty list or a load where nothing resolves keeps the previous queue. `append` adds to the end.
   */
  loadSongs: z.object({
    songs: z.array(SongSchema).max(1000),
    mode: z.enum(['replace', 'append']),
    requestedBy: z.string().min(1).max(64),
    /** What was loaded, for the receipt ("playlist Chill Mix"). */
    label: z.string().max(200),
    /** Songs before filtering to playable ones, when the source filtered (receipt "loaded X of Y"). */
    totalCount: z.number().int().min(0).optional(),
  }),

  pause: none,
  resume: none,
  next: none,
  prev: none,
  /** Stops playback (the bot stays connected); the queue stays. */
  stopPlayback: none,
  clear: none,
  volume: z.object({ volume: z.number().min(0).max(100) }),
  mode: z.object({ mode: PlayModeSchema }),
  seek: z.object({ position: z.number().min(0) }),
  playAt: z.object({ index: z.number().int().min(0) }),
  remove: z.object({ index: z.number().int().min(0) }),
  move: z.object({ from: z.number().int().min(0), to: z.number().int().min(0) }),
} as const;

export type BotOp = keyof typeof BOT_OPS;
export type BotOpArgs<Op extends BotOp> = z.infer<(typeof BOT_OPS)[Op]>;

/** Ops that start audio: refused with 409 while the bot is disconnected (SPEC Player rule 9). */
export const AUDIO_STARTING_OPS: ReadonlySet<BotOp> = new Set([
  'playSong',
  'playNowSong',
  'playNextSong',
  'addSong',
  'loadSongs',
  'next',
  'prev',
]);

/** Ops whose queue changes must not interleave (SPEC Player rule 6); the daemon runs all ops of a bot serially. */
export const QueueReplySchema = z.object({ queue: z.array(QueuedSongSchema) });

export const isBotOp = (op: string): op is BotOp => Object.hasOwn(BOT_OPS, op);
