/**
 * Bots at scale: N real bots of one Daemon (in-process bus, libSQL temp file) stream tone uploads
 * through ffmpeg to the TS3 test server in this same process. For each N, over one measurement window:
 *   - CPU ms per bot-second: this process (daemon + test server) plus the bots' ffmpeg children,
 *   - frames sent more than 10 ms late, from the players' own frame health,
 *   - voice packets the server received per bot per second (50 is real time).
 * N steps up while the total run stays within its time budget; the largest N under 0.1 % late frames
 * is reported.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AudioPlayer } from '../daemon/audio/audio-player';
import type { FrameCounts } from '../daemon/audio/frame-health';
import { FrameScheduler, type ScheduledPlayer } from '../daemon/audio/frame-scheduler';
import { Daemon } from '../daemon/daemon';
import { parseLicenseRoot } from '../daemon/ts3';
import { InProcessBus } from '../shared/bus/in-process-bus';
import { BotReplySchema } from '../shared/bus/messages';
import { BOTS_EVENTS, botCommandSubject } from '../shared/bus/subjects';
import { migrateDb, openDb } from '../shared/db/client';
import { bots } from '../shared/db/schema';
import { rootLogger } from '../shared/logger';
import { UPLOADS_DIR } from '../shared/sources/local/local-source';
import { addToneUpload } from '../tests/helpers/tone-uploads';
import { Ts3TestServer } from '../tests/ts3-server/ts3-test-server';

const STEPS = [1, 5, 10, 20, 40];
const BUDGET_MS = 90_000;
const WARMUP_MS = 1500;
/** The first step also warms up the JIT, the Opus encoder and the file cache. */
const FIRST_WARMUP_MS = 4000;
/** 8 s of one bot is 400 frames, so a single late frame already reads 0.25 %. */
const WINDOW_MS = 8000;
/** Longer than the whole run, so no track ends (and no ffmpeg exits) inside a window. */
const TONE_SECONDS = 150;
const LATE_LIMIT_PERCENT = 0.1;
const ACTOR = { id: 'bench', username: 'bench', role: 'admin' as const };

// The clock's stall warnings would flood the table; its late and missed frames are counted instead.
rootLogger.level = 'error';

/** The daemon's clock, keeping hold of the audio players it drives so their frame health can be read. */
class ObservedScheduler extends FrameScheduler {
  readonly audioPlayers = new Set<AudioPlayer>();

  override add(player: ScheduledPlayer): void {
    if (player instanceof AudioPlayer) this.audioPlayers.add(player);
    super.add(player);
  }

  frameTotals(): FrameCounts {
    const totals = { sent: 0, late: 0, missed: 0 };
    for (const player of this.audioPlayers) {
      const { total } = player.frameHealth;
      totals.sent += total.sent;
      totals.late += total.late;
      totals.missed += total.missed;
    }
    return totals;
  }
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU ms of this process's ffmpeg children, from /proc (utime + stime). */
function ffmpegChildrenCpuMs(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it exited while we looked
    }
    const nameEnd = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, nameEnd);
    // Fields after the name: state(3) ppid(4) … utime(14) stime(15), counted from 1 over the whole line.
    const fields = stat.slice(nameEnd + 2).split(' ');
    if (name !== 'ffmpeg' || Number(fields[1]) !== process.pid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface Row {
  bots: number;
  cpuMsPerBotSecond: number;
  latePercent: number;
  missed: number;
  packetsPerBotSecond: number;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'runtime-bench-'));
  mkdirSync(join(dataDir, UPLOADS_DIR));
  const maxBots = STEPS.at(-1) ?? 1;
  // One channel per bot: the server would otherwise relay every bot's voice to all the others.
  const rooms = Array.from({ length: maxBots }, (_, i) => ({ name: `Room${i}` }));
  const server = await Ts3TestServer.start({ channels: [{ name: 'Lobby', isDefault: true }, ...rooms] });
  const root = parseLicenseRoot(server.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  const db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
  await migrateDb(db);
  const bus = new InProcessBus(30_000);
  const scheduler = new ObservedScheduler();
  const daemon = new Daemon({
    db,
    bus,
    daemonId: 'bench',
    dataDir,
    scheduler,
    ts3: { licenseRoot: root.value },
  });
  await daemon.start();
  const song = await addToneUpload(db, dataDir, 'bench tone', [{ frequencyHz: 440, seconds: TONE_SECONDS }]);

  const command = async (botId: string, op: string, args?: object) =>
    BotReplySchema.parse(
      await bus.request(botCommandSubject(botId), { op, args, actor: ACTOR }, { timeoutMs: 30_000 }),
    );
  /** Bot nicknames in start order; bot i sits in Room<i>. */
  const running: string[] = [];

  const insertBot = async (i: number): Promise<string> => {
    const id = crypto.randomUUID();
    const now = new Date();
    const name = `Bench${i}`;
    await db.insert(bots).values({
      ...{ id, name, nickname: name, serverAddress: '127.0.0.1', serverPort: server.port },
      ...{ defaultChannel: `Room${i}`, createdAt: now, updatedAt: now },
    });
    bus.publish(BOTS_EVENTS, { type: 'botCreated', botId: id });
    return id;
  };

  const addBots = async (count: number) => {
    const first = running.length;
    const added = await Promise.all(Array.from({ length: count }, (_, k) => insertBot(first + k)));
    for (let k = 0; k < count; k++) running.push(`Bench${first + k}`);
    while (!added.every((id) => daemon.ownedBotIds().includes(id))) await sleep(20);
    const started = await Promise.all(added.map((id) => command(id, 'start')));
    const failed = started.find((r) => !r.ok);
    if (failed) throw new Error(`a bot did not start: ${failed.message}`);
    await Promise.all(added.map((id) => command(id, 'playSong', { song, requestedBy: 'bench' })));
  };

  const packetsIn = (fromMs: number, toMs: number) =>
    running.reduce((sum, name) => {
      const arrivals = server.voiceArrivals(server.clientByName(name)?.id ?? -1);
      return sum + arrivals.filter((t) => t >= fromMs && t < toMs).length;
    }, 0);

  const rows: Row[] = [];
  for (const n of STEPS) {
    // A step costs about its start-up plus warm-up and window; stop before the budget runs out.
    const elapsedMs = performance.now() - startedAt;
    if (rows.length > 0 && elapsedMs + WARMUP_MS + WINDOW_MS + n * 150 > BUDGET_MS) break;
    await addBots(n - running.length);
    await sleep(rows.length === 0 ? FIRST_WARMUP_MS : WARMUP_MS);
    const frames0 = scheduler.frameTotals();
    const cpu0 = processCpuMs() + ffmpegChildrenCpuMs();
    const from = performance.now();
    await sleep(WINDOW_MS);
    const to = performance.now();
    const cpu1 = processCpuMs() + ffmpegChildrenCpuMs();
    const frames1 = scheduler.frameTotals();
    const botSeconds = (n * (to - from)) / 1000;
    const sent = frames1.sent - frames0.sent;
    rows.push({
      bots: n,
      cpuMsPerBotSecond: (cpu1 - cpu0) / botSeconds,
      latePercent: sent === 0 ? 100 : ((frames1.late - frames0.late) / sent) * 100,
      missed: frames1.missed - frames0.missed,
      packetsPerBotSecond: packetsIn(from, to) / botSeconds,
    });
  }

  await daemon.stop();
  await bus.close();
  await server.close();
  db.$client.close();
  rmSync(dataDir, { recursive: true, force: true });
  print(rows, performance.now() - startedAt);
}

function print(rows: Row[], totalMs: number): void {
  console.log(
    `${rows.length} steps, ${WINDOW_MS / 1000} s window each after ${WARMUP_MS / 1000} s warm-up (the first ${FIRST_WARMUP_MS / 1000} s), ${(totalMs / 1000).toFixed(0)} s in all`,
  );
  console.log('   N | CPU ms / bot-s | late >10 ms | missed | packets / bot / s');
  for (const r of rows) {
    console.log(
      `${String(r.bots).padStart(4)} | ${r.cpuMsPerBotSecond.toFixed(1).padStart(14)} | ${`${r.latePercent.toFixed(3)} %`.padStart(11)} | ${String(r.missed).padStart(6)} | ${r.packetsPerBotSecond.toFixed(1).padStart(17)}`,
    );
  }
  const fine = rows.filter((r) => r.latePercent < LATE_LIMIT_PERCENT).map((r) => r.bots);
  console.log(
    fine.length > 0
      ? `largest N with < ${LATE_LIMIT_PERCENT} % late frames: ${Math.max(...fine)}`
      : `no N stayed under ${LATE_LIMIT_PERCENT} % late frames`,
  );
  console.log(
    'CPU counts this whole process (daemon and the in-process test server receiving the voice) plus the ffmpeg decoders.',
  );
  console.log(
    'Figures are from a shared, noisy machine (2 cores); compare rows within one run, not across runs.',
  );
}

await main();
