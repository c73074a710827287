/**
 * The bot process of the runtime bench: one Daemon (in-process bus, the bench's libSQL file) whose
 * bots stream to the counting TS3 server, and nothing else, so the bench can measure this process
 * and its ffmpeg children alone. Its decoder is the one AUDIO_DECODER in its environment selects.
 * Frame lateness comes from the daemon's own clock (observed-scheduler.ts).
 * The load bench asks it to serve the api as well, which makes it the whole service as `make run`
 * composes it (main.ts): the api on the main thread, the daemon on a thread of its own with the bus
 * over a port, one libSQL file, no web bundle. Its frames are then the daemon thread's counts (late
 * and missed; no percentiles). Driven over IPC.
 */
import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiProcess, startApi } from '../../api/process';
import { locateDecoder } from '../../daemon/audio/decode/ffmpeg-locator';
import { Daemon } from '../../daemon/daemon';
import { type DaemonThread, startDaemonThread } from '../../daemon/thread/daemon-thread-host';
import { parseLicenseRoot } from '../../daemon/ts3';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { BotReplySchema } from '../../shared/bus/messages';
import { BOTS_EVENTS, botCommandSubject } from '../../shared/bus/subjects';
import { type AppConfig, loadConfig } from '../../shared/config';
import { configureThread } from '../../shared/configure-thread';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { openDaemonDb } from '../../shared/db/daemon-db';
import { bots } from '../../shared/db/schema';
import { BotStatusSchema } from '../../shared/domain/schemas';
import { sourceContextOf } from '../../shared/sources/platform-modules';
import {
  API_NICENESS,
  lowerThreadPriority,
  raiseClockThreadPriority,
  requestRealtimeClock,
} from '../../shared/thread-priority';
import { botRow } from '../../testkit/bot-row';
import { epochMs } from './epoch-clock';
import type { LatenessSummary } from './lateness';
import { ObservedScheduler } from './observed-scheduler';
import { BOT_PROCESS_OPS, LOUDNESS_OFF_SUFFIX } from './protocol';
import { serveRpc } from './rpc';

const ACTOR = { id: 'bench', username: 'bench', role: 'admin' as const };
const LOUDNESS_OFF = process.env.BENCH_LOUDNESS_OFF === '1';
const COMMAND_TIMEOUT_MS = 30_000;
const START_BATCH = 5;

/** The daemon, in this thread (the runtime bench) or on its own (the load bench's `make run` layout). */
interface Bots {
  owns(botId: string): Promise<boolean>;
  /** Drops the counts so far: a measurement window starts. */
  startWindow(): Promise<void>;
  /** Frames sent (with their lateness) and missed since the last call or `startWindow`. */
  take(): Promise<{ lateness: LatenessSummary; missed: number }>;
  stop(): Promise<void>;
}

interface Running {
  db: Db;
  bus: InProcessBus;
  bots: Bots;
  api: ApiProcess | undefined;
  serverPort: number;
  /** Bot ids by name. */
  botIds: Map<string, string>;
}

/** The daemon in this process, on the bench's observed clock. */
async function daemonHere(
  config: AppConfig,
  db: Db,
  bus: InProcessBus,
  licenseRoot: Uint8Array,
): Promise<Bots> {
  const scheduler = new ObservedScheduler();
  const daemon = new Daemon({
    db,
    bus,
    daemonId: 'bench',
    sourceContext: sourceContextOf(db, config),
    scheduler,
    ts3: { licenseRoot },
    ffmpeg: config.ffmpeg,
    encoder: { build: config.opusBuild },
  });
  await daemon.start();
  let missedSoFar = 0;
  return {
    owns: async (botId) => daemon.ownedBotIds().includes(botId),
    startWindow: async () => {
      scheduler.lateness.clear();
      missedSoFar = scheduler.frameTotals().missed;
    },
    take: async () => {
      const { missed } = scheduler.frameTotals();
      const missedInWindow = missed - missedSoFar;
      missedSoFar = missed;
      return { lateness: scheduler.lateness.take(), missed: missedInWindow };
    },
    stop: () => daemon.stop(),
  };
}

/** The daemon on its own thread, as main.ts runs it; counts from its frame report. */
function daemonApart(thread: DaemonThread, bus: InProcessBus): Bots {
  let last = { sent: 0, late: 0, missed: 0 };
  return {
    owns: async (botId) => {
      try {
        await bus.request(botCommandSubject(botId), { op: 'status', actor: ACTOR });
        return true;
      } catch {
        return false;
      }
    },
    startWindow: async () => {
      last = (await thread.frameReport()).frames;
    },
    take: async () => {
      const { frames } = await thread.frameReport();
      const sent = frames.sent - last.sent;
      const late = frames.late - last.late;
      const missed = frames.missed - last.missed;
      last = frames;
      const none = Number.NaN;
      return {
        lateness: {
          frames: sent,
          late,
          latePercent: sent ? (late / sent) * 100 : none,
          p50Ms: none,
          p99Ms: none,
          maxMs: none,
        },
        missed,
      };
    },
    stop: () => thread.stop(10_000),
  };
}
let running: Running | undefined;

const state = (): Running => {
  if (!running) throw new Error('the daemon has not been started');
  return running;
};

async function command(botId: string, op: string, args?: object): Promise<unknown> {
  const reply = BotReplySchema.parse(
    await state().bus.request(
      botCommandSubject(botId),
      { op, args, actor: ACTOR },
      { timeoutMs: COMMAND_TIMEOUT_MS },
    ),
  );
  if (!reply.ok) throw new Error(`${op} failed: ${reply.message}`);
  return reply.data;
}

/**
 * Waits until the bot has sent audio of its track (`elapsed` counts frames actually sent): a step's
 * window is to measure bots playing, not their decoders starting (a spawn from a process of a few
 * hundred MB takes tens of ms of the worker that makes it).
 */
async function untilSendingAudio(botId: string): Promise<void> {
  const deadline = Date.now() + COMMAND_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const status = BotStatusSchema.parse(await command(botId, 'status'));
    if (status.elapsed > 0) return;
    await sleep(100);
  }
  throw new Error(`bot ${botId} sent no audio within ${COMMAND_TIMEOUT_MS / 1000} s of its play command`);
}

/**
 * The engine as the bench names it: `+ffmpeg` when tracks decode with ffmpeg rather than pcm-decoder,
 * ` loudness-off` when the bots play without loudness normalization (BENCH_LOUDNESS_OFF).
 */
function benchEngineName(config: AppConfig): string {
  const decoder = locateDecoder(config.ffmpeg);
  const viaFfmpeg = !decoder.ok || basename(decoder.value) !== 'pcm-decoder';
  return `${viaFfmpeg ? 'workers+ffmpeg' : 'workers'}${LOUDNESS_OFF ? ` ${LOUDNESS_OFF_SUFFIX}` : ''}`;
}

serveRpc(BOT_PROCESS_OPS, {
  start: async ({ dataDir, serverPort, licenseRoot, serveApi }) => {
    const root = parseLicenseRoot(licenseRoot);
    if (!root.ok) throw new Error(root.error);
    // The daemon in this thread (the runtime bench) gets the handle daemon/main.ts gets, whose
    // statements run off its clock's thread; served with the api, this handle is the api's (main.ts).
    const dbOptions = { url: `file:${join(dataDir, 'bot.db')}` };
    const db = serveApi ? openDb(dbOptions) : openDaemonDb(dbOptions);
    await migrateDb(db);
    const bus = new InProcessBus(COMMAND_TIMEOUT_MS);
    // This process is an entry: its configuration is its environment (AUDIO_DECODER, LOG_LEVEL, …).
    const config = loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      TS3_LICENSE_ROOT: licenseRoot,
    });
    configureThread(config);
    if (!serveApi) {
      // As daemon/process.ts does for the thread that runs the clock.
      raiseClockThreadPriority();
      await requestRealtimeClock();
      const here = await daemonHere(config, db, bus, root.value);
      running = { db, bus, bots: here, api: undefined, serverPort, botIds: new Map() };
      return { engine: benchEngineName(config) };
    }
    // As main.ts composes `make run`.
    const thread = await startDaemonThread(config, bus, (request) => api.app.fetch(request));
    const api = await startApi(config, { db, bus });
    lowerThreadPriority(API_NICENESS);
    running = { db, bus, bots: daemonApart(thread, bus), api, serverPort, botIds: new Map() };
    return { engine: benchEngineName(config), apiPort: api.port };
  },

  addBots: async ({ bots: specs }) => {
    const { db, bus, bots: daemon, serverPort, botIds } = state();
    const rows = specs.map((spec) => ({
      ...botRow(randomUUID(), spec.name),
      serverPort,
      defaultChannel: spec.channel,
      // Even loudness is on for a new bot; the bench turns it off to weigh what it costs.
      ...(LOUDNESS_OFF ? { loudnessNormalization: false } : {}),
    }));
    await db.insert(bots).values(rows);
    for (const row of rows) bus.publish(BOTS_EVENTS, { type: 'botCreated', botId: row.id });
    for (const row of rows) while (!(await daemon.owns(row.id))) await sleep(20);
    for (const row of rows) botIds.set(row.name, row.id);
    // In batches: a hundred handshakes at once on two cores would miss the 15 s start deadline.
    let retriedStarts = 0;
    const start = async (botId: string) => {
      try {
        await command(botId, 'start');
      } catch {
        // A busy machine can push one handshake past the deadline; a second miss is a real failure.
        retriedStarts++;
        await command(botId, 'start');
      }
    };
    for (let i = 0; i < rows.length; i += START_BATCH)
      await Promise.all(rows.slice(i, i + START_BATCH).map((row) => start(row.id)));
    await Promise.all(
      rows.map((row, i) => command(row.id, 'playSong', { song: specs[i]!.song, requestedBy: 'bench' })),
    );
    await Promise.all(rows.map((row) => untilSendingAudio(row.id)));
    return { retriedStarts };
  },

  startWindow: async () => {
    await state().bots.startWindow();
    return {};
  },
  take: () => state().bots.take(),

  command: async ({ bot, op, args }) => {
    const id = state().botIds.get(bot);
    if (!id) throw new Error(`no bot named ${bot}`);
    const sentAtEpochMs = epochMs();
    await command(id, op, args);
    return { sentAtEpochMs };
  },

  shutdown: async () => {
    if (!running) return {};
    const { db, bus, bots: daemon, api } = running;
    running = undefined;
    await api?.close();
    await daemon.stop();
    await bus.close();
    await db.$client.close();
    return {};
  },
});
