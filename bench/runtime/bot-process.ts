/**
 * The bot process of the runtime bench: one Daemon (in-process bus, the bench's libSQL file) whose
 * bots stream to the counting TS3 server, and nothing else, so the bench can measure this process
 * and its ffmpeg children alone. The audio engine is the one AUDIO_ENGINE in its environment selects.
 * The load bench also asks it to serve the api on the same bus, which makes it the whole service of
 * `make run` (api, daemon, in-process bus, one libSQL file) without the web bundle.
 * Frame lateness comes from the daemon's own clock (observed-scheduler.ts). Driven over IPC.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiProcess, startApi } from '../../api/process';
import { Daemon } from '../../daemon/daemon';
import { parseLicenseRoot } from '../../daemon/ts3';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { BotReplySchema } from '../../shared/bus/messages';
import { BOTS_EVENTS, botCommandSubject } from '../../shared/bus/subjects';
import { loadConfig } from '../../shared/config';
import { configureThread } from '../../shared/configure-thread';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { bots } from '../../shared/db/schema';
import { botRow } from '../../tests/helpers/bot-row';
import { epochMs } from './epoch-clock';
import { ObservedScheduler } from './observed-scheduler';
import { BOT_PROCESS_OPS } from './protocol';
import { serveRpc } from './rpc';

const ACTOR = { id: 'bench', username: 'bench', role: 'admin' as const };
const COMMAND_TIMEOUT_MS = 30_000;
const START_BATCH = 5;

interface Running {
  db: Db;
  bus: InProcessBus;
  daemon: Daemon;
  api: ApiProcess | undefined;
  scheduler: ObservedScheduler;
  serverPort: number;
  /** Bot ids by name. */
  botIds: Map<string, string>;
  missedSoFar: number;
}
let running: Running | undefined;

const state = (): Running => {
  if (!running) throw new Error('the daemon has not been started');
  return running;
};

async function command(botId: string, op: string, args?: object): Promise<void> {
  const reply = BotReplySchema.parse(
    await state().bus.request(
      botCommandSubject(botId),
      { op, args, actor: ACTOR },
      { timeoutMs: COMMAND_TIMEOUT_MS },
    ),
  );
  if (!reply.ok) throw new Error(`${op} failed: ${reply.message}`);
}

serveRpc(BOT_PROCESS_OPS, {
  start: async ({ dataDir, serverPort, licenseRoot, serveApi }) => {
    const root = parseLicenseRoot(licenseRoot);
    if (!root.ok) throw new Error(root.error);
    const db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
    await migrateDb(db);
    const bus = new InProcessBus(COMMAND_TIMEOUT_MS);
    const scheduler = new ObservedScheduler();
    // This process is an entry: its configuration is its environment (AUDIO_ENGINE, LOG_LEVEL, …).
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' });
    configureThread(config);
    const daemon = new Daemon({
      db,
      bus,
      daemonId: 'bench',
      dataDir,
      scheduler,
      ts3: { licenseRoot: root.value },
      ffmpeg: config.ffmpeg,
      audioEngine: config.audioEngine,
      encoder: { build: config.opusBuild },
    });
    await daemon.start();
    const api = serveApi ? await startApi(config, { db, bus }) : undefined;
    running = { db, bus, daemon, api, scheduler, serverPort, botIds: new Map(), missedSoFar: 0 };
    return { engine: config.audioEngine, ...(api ? { apiPort: api.port } : {}) };
  },

  addBots: async ({ bots: specs }) => {
    const { db, bus, daemon, serverPort, botIds } = state();
    const rows = specs.map((spec) => ({
      ...botRow(randomUUID(), spec.name),
      serverPort,
      defaultChannel: spec.channel,
    }));
    await db.insert(bots).values(rows);
    for (const row of rows) bus.publish(BOTS_EVENTS, { type: 'botCreated', botId: row.id });
    while (!rows.every((row) => daemon.ownedBotIds().includes(row.id))) await sleep(20);
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
    return { retriedStarts };
  },

  take: () => {
    const current = state();
    const { missed } = current.scheduler.frameTotals();
    const missedInWindow = missed - current.missedSoFar;
    current.missedSoFar = missed;
    return { lateness: current.scheduler.lateness.take(), missed: missedInWindow };
  },

  command: async ({ bot, op, args }) => {
    const id = state().botIds.get(bot);
    if (!id) throw new Error(`no bot named ${bot}`);
    const sentAtEpochMs = epochMs();
    await command(id, op, args);
    return { sentAtEpochMs };
  },

  shutdown: async () => {
    if (!running) return {};
    const { db, bus, daemon, api } = running;
    running = undefined;
    await api?.close();
    await daemon.stop();
    await bus.close();
    db.$client.close();
    return {};
  },
});
