/**
 * One engine's part of the runtime bench: a counting TS3 server process and a bot process (its
 * decoder set by the engine's name), then
 *   1. latency, with one bot and nothing else playing (latency-run.ts);
 *   2. the ramp: bots are added to the same process step by step (10, 25, 50, 100, 150), each playing
 *      its own file; after a warm-up, one window per step measures the bot process and its ffmpeg
 *      children from outside (/proc), the frames the daemon's clock sent, and the packets the server got.
 * A step that would not fit in the time left is skipped, and so are the steps after it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FRAME_SECONDS } from '../../daemon/audio/pcm-format';
import { type Db, openDb } from '../../shared/db/client';
import { preparedDataDir } from '../../testkit/run-service';
import type { BenchMedia } from './bench-media';
import { type LatencyFigures, measureLatency } from './latency-run';
import type { LatenessSummary } from './lateness';
import {
  groupCpu,
  groupMemory,
  type Memory,
  mainThreadWaitingMs,
  readProcStat,
  ticksToMs,
} from './proc-stats';
import {
  BOT_PROCESS_OPS,
  type BotProcess,
  type BotSpec,
  benchBotName,
  COUNTING_SERVER_OPS,
  LOUDNESS_OFF_SUFFIX,
  type Server,
} from './protocol';
import { RpcChild } from './rpc';
import { churnTracks } from './track-churn';

export interface RunPlan {
  engine: string;
  steps: number[];
  /** After bots are added, before the window: their handshakes' echoes and ffmpeg start-ups settle. */
  warmupMs: number;
  /** More warm-up per bot added (each new ffmpeg starts up and fills its buffer). */
  warmupMsPerAddedBot: number;
  /** The first step also warms up the JIT, the Opus encoders and the file cache. */
  firstWarmupMs: number;
  windowMs: number;
  latencyRepetitions: number;
  /** When this engine's run must be over (performance.now()). */
  deadlineMs: number;
}

export interface StepRow {
  engine: string;
  bots: number;
  /**
   * CPU per second of audio sent (50 frames of one bot): a process starved of CPU sends fewer frames,
   * and per second of wall time would then look cheaper than it is.
   */
  nodeCpuMsPerAudioSecond: number;
  decoderCpuMsPerAudioSecond: number;
  /** The counting server's CPU, for scale: it is not part of the bot process. */
  serverCpuMsPerAudioSecond: number;
  /** Share of the window the bot process's main thread was ready to run but waited for a CPU. */
  waitingForCpuPercent: number;
  /** Frames the daemon's clock sent, with their lateness against their tick's deadline. */
  frames: LatenessSummary;
  missedFrames: number;
  /** Decoder restarts made inside the window (track-churn.ts). */
  trackChanges: number;
  /** Packets as the server saw them: lateness from their arrival times (arrival-lateness.ts). */
  arrivals: LatenessSummary;
  packetsPerBotSecond: number;
  /** The fewest packets per second of any one bot. */
  slowestBotPacketsPerSecond: number;
  endPackets: number;
  /** Streams decoded for a second each (in turn), and how many of them were audible. */
  sampledStreams: number;
  audibleStreams: number;
  decodeErrors: number;
  rssMbPerBot: number;
  pssMbPerBot: number;
  /** The parts: the node process, one ffmpeg child on average, and any other children. */
  node: MemoryMb;
  perDecoder: MemoryMb;
  decoders: number;
  others: MemoryMb & { names: string[] };
}

export interface MemoryMb {
  rssMb: number;
  pssMb: number;
}

export interface EngineResult {
  engine: string;
  rows: StepRow[];
  latency: LatencyFigures | undefined;
  /** Steps left out because the time budget ran out, or after a failure. */
  skipped: number[];
  /** Why the run ended early (a bot that could not connect, a child process that died). */
  failure: string | undefined;
  /** Bot starts that missed the start deadline once and connected on the second try. */
  retriedStarts: number;
}

/** A first guess at connecting one bot and starting its song; later steps use what the earlier took. */
const FIRST_GUESS_START_MS_PER_BOT = 150;
/** Songs are longer than the time left by this much, in case the last step overruns. */
const SONG_MARGIN_SECONDS = 30;
const KB_PER_MB = 1024;

const inMb = (memory: Memory, divisor = 1): MemoryMb => ({
  rssMb: memory.rssKb / KB_PER_MB / divisor,
  pssMb: memory.pssKb / KB_PER_MB / divisor,
});

/**
 * An engine name is `workers`, optionally with the decoder after a `+` and ` loudness-off` after a
 * space: `workers+ffmpeg` is the workers engine decoding with ffmpeg itself rather than the project's
 * pcm-decoder; `workers loudness-off` has its bots play without loudness normalization (on for a new
 * bot), to weigh what normalization costs.
 */
function engineEnvironment(engine: string): Record<string, string> {
  const [name = '', variant] = engine.split(' ');
  const [, decoder] = name.split('+');
  return {
    ...(decoder === 'ffmpeg' ? { AUDIO_DECODER: 'ffmpeg' } : {}),
    ...(variant === LOUDNESS_OFF_SUFFIX ? { BENCH_LOUDNESS_OFF: '1' } : {}),
  };
}

export async function runEngine(plan: RunPlan, media: BenchMedia): Promise<EngineResult> {
  const dataDir = await preparedDataDir('runtime-bench-');
  const db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
  const maxBots = Math.max(...plan.steps);
  // Warnings (a late tick, a slow encoder) would interleave with the tables; the figures count them.
  const server = RpcChild.start('bench/runtime/ts3-counting-server.ts', COUNTING_SERVER_OPS, {
    label: 'the counting TS3 server',
    env: { LOG_LEVEL: 'error' },
  });
  const bot = RpcChild.start('bench/runtime/bot-process.ts', BOT_PROCESS_OPS, {
    label: `the bot process (${plan.engine})`,
    env: { ...engineEnvironment(plan.engine), LOG_LEVEL: 'error' },
  });
  const result: EngineResult = {
    engine: plan.engine,
    rows: [],
    latency: undefined,
    skipped: [],
    failure: undefined,
    retriedStarts: 0,
  };
  const progress = (what: string) => process.stderr.write(`runtime bench, ${plan.engine}: ${what}\n`);
  try {
    // One room per bot, and one more for the latency bot.
    const { port, rootPublicKey } = await server.call('start', { rooms: maxBots + 1 });
    const { engine } = await bot.call('start', { dataDir, serverPort: port, licenseRoot: rootPublicKey });
    if (engine !== plan.engine)
      throw new Error(`the bot process runs the ${engine} engine, not ${plan.engine}`);

    progress(`latency, ${plan.latencyRepetitions} repetitions`);
    result.latency = await measureLatency({
      ...{ db, dataDir, server, bot },
      room: `Room${maxBots}`,
      repetitions: plan.latencyRepetitions,
    });

    await rampUp(plan, { media, db, dataDir, server, bot }, result, progress);
  } catch (error) {
    result.failure = error instanceof Error ? error.message : String(error);
    const measured = new Set(result.rows.map((row) => row.bots));
    result.skipped = plan.steps.filter((n) => !measured.has(n));
  } finally {
    await bot.stop();
    await server.stop();
    db.$client.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return result;
}

interface Setup {
  media: BenchMedia;
  db: Db;
  dataDir: string;
  server: Server;
  bot: BotProcess;
}

/** Adds bots step by step, measuring one window per step, while the steps fit in the time left. */
async function rampUp(
  plan: RunPlan,
  { media, db, dataDir, server, bot }: Setup,
  result: EngineResult,
  progress: (what: string) => void,
): Promise<void> {
  let botCount = 0;
  let startMsPerBot = FIRST_GUESS_START_MS_PER_BOT;
  for (const n of plan.steps) {
    const added = n - botCount;
    const warmupMs =
      (result.rows.length === 0 ? plan.firstWarmupMs : plan.warmupMs) + added * plan.warmupMsPerAddedBot;
    if (
      result.skipped.length > 0 ||
      performance.now() + added * startMsPerBot + warmupMs + plan.windowMs > plan.deadlineMs
    ) {
      result.skipped.push(n);
      continue;
    }
    progress(`N = ${n}`);
    // Each file outlasts this engine's run, so no track ends (and no ffmpeg exits) inside a window.
    const songSeconds = (plan.deadlineMs - performance.now()) / 1000 + SONG_MARGIN_SECONDS;
    const specs: BotSpec[] = [];
    for (let i = botCount; i < n; i++)
      specs.push({
        name: benchBotName(i),
        channel: `Room${i}`,
        song: await media.botSong(db, dataDir, i, songSeconds),
      });
    const startedAt = performance.now();
    result.retriedStarts += (await bot.call('addBots', { bots: specs })).retriedStarts;
    startMsPerBot = (performance.now() - startedAt) / added;
    botCount = n;
    await sleep(warmupMs);
    result.rows.push(await measureWindow(plan, n, server, bot));
  }
}

async function measureWindow(plan: RunPlan, n: number, server: Server, bot: BotProcess): Promise<StepRow> {
  await Promise.all([server.call('startWindow', {}), bot.call('startWindow', {})]);
  const cpuBefore = groupCpu(bot.pid);
  const waitingBefore = mainThreadWaitingMs(bot.pid);
  const serverBefore = readProcStat(server.pid)?.cpuTicks ?? 0;
  const from = performance.now();
  const churn = churnTracks(bot, n);
  await sleep(plan.windowMs);
  const trackChanges = await churn.stop();
  const [heard, sent] = await Promise.all([server.call('take', {}), bot.call('take', {})]);
  const to = performance.now();
  const cpuAfter = groupCpu(bot.pid);
  const waitingAfter = mainThreadWaitingMs(bot.pid);
  const serverAfter = readProcStat(server.pid)?.cpuTicks ?? 0;
  const memory = groupMemory(bot.pid);
  const botSeconds = (n * (to - from)) / 1000;
  const windowSeconds = (to - from) / 1000;
  const audioSeconds = sent.lateness.frames * FRAME_SECONDS;
  return {
    engine: plan.engine,
    bots: n,
    nodeCpuMsPerAudioSecond: (cpuAfter.ownMs - cpuBefore.ownMs) / audioSeconds,
    decoderCpuMsPerAudioSecond: (cpuAfter.childrenMs - cpuBefore.childrenMs) / audioSeconds,
    serverCpuMsPerAudioSecond: ticksToMs(serverAfter - serverBefore) / audioSeconds,
    waitingForCpuPercent: ((waitingAfter - waitingBefore) / (to - from)) * 100,
    frames: sent.lateness,
    missedFrames: sent.missed,
    trackChanges,
    arrivals: heard.lateness,
    packetsPerBotSecond: heard.packets / botSeconds,
    slowestBotPacketsPerSecond: heard.clients < n ? 0 : heard.fewestPackets / windowSeconds,
    endPackets: heard.endPackets,
    sampledStreams: heard.sampled.streams,
    audibleStreams: heard.sampled.audible,
    decodeErrors: heard.sampled.decodeErrors,
    rssMbPerBot: (memory.own.rssKb + memory.decoders.rssKb + memory.others.rssKb) / KB_PER_MB / n,
    pssMbPerBot: (memory.own.pssKb + memory.decoders.pssKb + memory.others.pssKb) / KB_PER_MB / n,
    node: inMb(memory.own),
    perDecoder: inMb(memory.decoders, Math.max(1, memory.decoderCount)),
    decoders: memory.decoderCount,
    others: { ...inMb(memory.others), names: memory.otherNames },
  };
}
