/**
 * Latency of one bot with nothing else playing, as a listener would notice it, timed from the command
 * (sent in the bot process) to a packet's arrival at the counting server (epoch-clock.ts):
 *   - start: `playSong` of a local file to the first audio packet;
 *   - seek: `seek` to the first packet of the new position. The file plays 440 Hz for 20 s and 880 Hz
 *     after, the seek lands at 25 s, and the server decodes the bot's packets until 880 Hz wins.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../shared/db/client';
import { twoToneSong } from './bench-media';
import type { BotProcess, Server, WatchTarget } from './protocol';

export interface LatencyFigures {
  startMs: number[];
  seekMs: number[];
  /** Repetitions in which the packet never came (within the watch timeout). */
  lost: number;
}

export interface LatencySetup {
  db: Db;
  dataDir: string;
  server: Server;
  bot: BotProcess;
  /** The latency bot's channel, where no other bot talks. */
  room: string;
  repetitions: number;
}

const LATENCY_BOT = 'Latency';
const LATENCY_TONES = { lowHz: 440, highHz: 880, halfSeconds: 20 };
const SEEK_TO_SECONDS = 25;
const WATCH_TIMEOUT_MS = 5000;
/** How long the latency bot plays before it seeks, and rests after it stops. */
const PLAY_BEFORE_SEEK_MS = 200;
const REST_MS = 100;

export async function measureLatency({
  db,
  dataDir,
  server,
  bot,
  room,
  repetitions,
}: LatencySetup): Promise<LatencyFigures> {
  const song = await twoToneSong(db, dataDir, LATENCY_TONES);
  await bot.call('addBots', { bots: [{ name: LATENCY_BOT, channel: room, song }] });
  await bot.call('command', { bot: LATENCY_BOT, op: 'stopPlayback' });
  const figures: LatencyFigures = { startMs: [], seekMs: [], lost: 0 };
  const timed = async (
    target: WatchTarget,
    command: () => Promise<{ sentAtEpochMs: number }>,
  ): Promise<number | undefined> => {
    const { watchId } = await server.call('watch', {
      nickname: LATENCY_BOT,
      target,
      timeoutMs: WATCH_TIMEOUT_MS,
    });
    const { sentAtEpochMs } = await command();
    const { arrivedAtEpochMs } = await server.call('awaitWatch', { watchId });
    if (arrivedAtEpochMs === null) figures.lost++;
    return arrivedAtEpochMs === null ? undefined : arrivedAtEpochMs - sentAtEpochMs;
  };
  for (let i = 0; i < repetitions; i++) {
    const start = await timed({ kind: 'audio' }, () =>
      bot.call('command', { bot: LATENCY_BOT, op: 'playSong', args: { song, requestedBy: 'bench' } }),
    );
    if (start !== undefined) figures.startMs.push(start);
    await sleep(PLAY_BEFORE_SEEK_MS);
    const seek = await timed(
      { kind: 'tone', toneHz: LATENCY_TONES.highHz, insteadOfHz: LATENCY_TONES.lowHz },
      () => bot.call('command', { bot: LATENCY_BOT, op: 'seek', args: { position: SEEK_TO_SECONDS } }),
    );
    if (seek !== undefined) figures.seekMs.push(seek);
    await bot.call('command', { bot: LATENCY_BOT, op: 'stopPlayback' });
    await sleep(REST_MS);
  }
  // Disconnected, so it costs nothing in the steps that follow.
  await bot.call('command', { bot: LATENCY_BOT, op: 'stop' });
  return figures;
}
