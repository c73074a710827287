/**
 * The operation tables between the runtime bench and its two child processes: the counting TS3 test
 * server (ts3-counting-server.ts) and the bot process (bot-process.ts).
 */
import { z } from 'zod';
import { SongSchema } from '../../shared/domain/schemas';
import { type RpcChild, SHUTDOWN_OP } from './rpc';

/** NaN where there is nothing to tell: an empty window, or percentiles the daemon's thread does not keep. */
const figure = z.number().or(z.nan());
const LatenessSummarySchema = z.object({
  frames: z.number(),
  late: z.number(),
  latePercent: figure,
  p50Ms: figure,
  p99Ms: figure,
  maxMs: figure,
});

/** What a watch waits for: any audio, or audio in which `toneHz` is stronger than `insteadOfHz`. */
const WatchTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('audio') }),
  z.object({ kind: z.literal('tone'), toneHz: z.number(), insteadOfHz: z.number() }),
]);
export type WatchTarget = z.infer<typeof WatchTargetSchema>;

export const COUNTING_SERVER_OPS = {
  /** Starts the server with one channel per bot (`Room0` …), so no bot's voice is relayed to another. */
  start: {
    args: z.object({ rooms: z.number().int().min(1) }),
    reply: z.object({ port: z.number(), rootPublicKey: z.string() }),
  },
  /** Drops what arrived so far, unsummarized: a measurement window starts. */
  startWindow: { args: z.object({}), reply: z.object({}) },
  /** What arrived since the last `take` or `startWindow` (voice-counter.ts). */
  take: {
    args: z.object({}),
    reply: z.object({
      clients: z.number(),
      packets: z.number(),
      endPackets: z.number(),
      fewestPackets: z.number(),
      lateness: LatenessSummarySchema,
      sampled: z.object({ streams: z.number(), audible: z.number(), decodeErrors: z.number() }),
    }),
  },
  /** Arms a watch on a bot's next matching packet; `awaitWatch` gets its arrival (null: none in time). */
  watch: {
    args: z.object({ nickname: z.string(), target: WatchTargetSchema, timeoutMs: z.number() }),
    reply: z.object({ watchId: z.number() }),
  },
  awaitWatch: {
    args: z.object({ watchId: z.number() }),
    reply: z.object({ arrivedAtEpochMs: z.number().nullable() }),
  },
  shutdown: SHUTDOWN_OP,
};

/** The i-th bench bot's name (its channel is `Room<i>`). */
export const benchBotName = (i: number) => `Bench${i}`;
/** An engine name's variant whose bots play without loudness normalization. */
export const LOUDNESS_OFF_SUFFIX = 'loudness-off';

export const BotSpecSchema = z.object({ name: z.string(), channel: z.string(), song: SongSchema });
export type BotSpec = z.infer<typeof BotSpecSchema>;

export const BOT_PROCESS_OPS = {
  /** Opens the database and starts the daemon; bots come with `addBots`. */
  start: {
    args: z.object({
      dataDir: z.string(),
      serverPort: z.number(),
      licenseRoot: z.string(),
      /** Also serve the REST API and WebSocket gateway on the same bus, as `make run` does (load bench). */
      serveApi: z.boolean().optional(),
    }),
    /** `apiPort`: where the api listens on 127.0.0.1, when `serveApi` was asked for. */
    reply: z.object({ engine: z.string(), apiPort: z.number().optional() }),
  },
  /** Creates the bots, connects them and starts each one's song; a start that failed once is retried. */
  addBots: {
    args: z.object({ bots: z.array(BotSpecSchema) }),
    reply: z.object({ retriedStarts: z.number() }),
  },
  /**
   * Drops the frame health so far, unsummarized: a measurement window starts. Summarizing a warm-up's
   * hundred thousand frames would hold the frame clock's thread as the window's first tick is due.
   */
  startWindow: { args: z.object({}), reply: z.object({}) },
  /** Frame health since the last `take` or `startWindow`: lateness of every frame sent, and frames missed. */
  take: {
    args: z.object({}),
    reply: z.object({ lateness: LatenessSummarySchema, missed: z.number() }),
  },
  /** Sends one command to a bot; replies with when it was sent (epoch ms) once the bot has answered. */
  command: {
    args: z.object({
      bot: z.string(),
      op: z.enum(['playSong', 'seek', 'stopPlayback', 'stop']),
      args: z.record(z.string(), z.unknown()).optional(),
    }),
    reply: z.object({ sentAtEpochMs: z.number() }),
  },
  shutdown: SHUTDOWN_OP,
};

export type Server = RpcChild<typeof COUNTING_SERVER_OPS>;
export type BotProcess = RpcChild<typeof BOT_PROCESS_OPS>;
