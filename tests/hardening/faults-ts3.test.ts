/**
 * The voice server dropping a playing bot, with the real daemon, TS3 client and TS3 test server:
 * - an admin's kick is a decision: the bot stays out (no reconnect), keeps its queue, and a start
 *   brings it back playing where it was;
 * - a server shutdown notice, and a connection the server silently forgot (noticed by the silence),
 *   are outages: the bot reconnects on its own and plays on;
 * - a server that is gone for a while: the bot's attempts back off (the logged delays double from the
 *   base up to the ceiling), and once the server is back on its port the bot reconnects and plays.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reconnectDelayMs } from '../../daemon/bots/connection/reconnect-backoff';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { type DaemonHarness, DaemonHarness as Harness } from '../daemon/harness';
import { heard, samplesBetween } from '../daemon/heard';
import { useFaultTally } from './fault-tally';

const logLines = vi.hoisted((): string[] => []);
vi.mock(import('pino'), async (importOriginal) =>
  (await import('../helpers/log-capture')).pinoAtTraceInto(logLines, await importOriginal()),
);

const BACKOFF = { baseMs: 100, maxMs: 800 };
const NAME = 'Sturdy';
const tally = useFaultTally('faults-ts3');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A daemon with one bot playing a long tone to a fresh test server. */
async function playingBot() {
  const rootSecret = randomBytes(32);
  const server = await Ts3TestServer.start({ rootSecret });
  cleanups.push(() => server.close().catch(() => undefined));
  const h = await Harness.create(server, { lossTimeoutMs: 1500, backoff: BACKOFF });
  cleanups.push(() => h.close());
  await h.startDaemon();
  const bot = await h.addBot(server.port, { name: NAME });
  const song = await h.toneSong('long', [{ frequencyHz: 500, seconds: 20 }]);
  expect((await h.command(bot, 'start')).ok).toBe(true);
  await h.command(bot, 'playSong', { song, requestedBy: 'alice' });
  await h.waitForStatus(bot, (s) => s.playing && s.elapsed > 1, 10_000, 'playing');
  return { server, h, bot, song, rootSecret };
}

/** The bot's `reconnecting` log lines since `from` (an index into the captured lines). */
function reconnectDelays(bot: string, from: number): { attempt: number; delayMs: number }[] {
  return logLines
    .slice(from)
    .map((line) => JSON.parse(line) as { msg?: string; bot?: string; attempt: number; delayMs: number })
    .filter((line) => line.msg === 'reconnecting' && line.bot === bot)
    .map(({ attempt, delayMs }) => ({ attempt, delayMs }));
}

/** Waits until the bot is connected and playing again and `server` hears it. */
async function playsAgain(h: DaemonHarness, bot: string, server: Ts3TestServer, what: string) {
  if (!h.daemon?.ownedBotIds().includes(bot)) tally.crashed();
  const status = await h.waitForStatus(bot, (s) => s.connected && s.playing, 20_000, what);
  const since = performance.now();
  await h.waitFor(
    () => {
      const client = server.clientByName(NAME);
      return (
        client !== undefined && samplesBetween(heard(server, client.id), since, Infinity).length >= 48_000
      );
    },
    10_000,
    `a second of audio heard after ${what}`,
  );
  return status;
}

describe('a bot dropped by its voice server', () => {
  it('stays out after a kick, keeps its queue, and plays on from where it was once started again', async () => {
    const { server, h, bot, song } = await playingBot();
    const before = await h.status(bot);
    const mark = logLines.length;
    server.disconnectClient(server.clientByName(NAME)!.id, 'kick', 'behave');
    tally.injected();
    const kicked = await h.waitForStatus(bot, (s) => !s.connected, 10_000, 'the kick noticed');
    expect(kicked).toMatchObject({ playing: false, queueSize: 1 });
    // Several base delays: a reconnect would have shown by now.
    await sleep(BACKOFF.baseMs * 5);
    expect(reconnectDelays(bot, mark)).toEqual([]);
    expect(server.clientByName(NAME)).toBeUndefined();
    expect((await h.command(bot, 'start')).ok).toBe(true);
    const status = await playsAgain(h, bot, server, 'the start after the kick');
    expect(status.currentSong?.id).toBe(song.id);
    expect(status.elapsed).toBeGreaterThanOrEqual(before.elapsed);
  }, 60_000);

  it('reconnects after a server shutdown notice and plays on', async () => {
    const { server, h, bot } = await playingBot();
    const mark = logLines.length;
    const first = server.clientByName(NAME)!.id;
    server.disconnectClient(first, 'shutdown', 'restarting');
    tally.injected();
    await playsAgain(h, bot, server, 'the reconnect after the shutdown notice');
    expect(server.clientByName(NAME)?.id).not.toBe(first);
    expect(reconnectDelays(bot, mark)[0]).toEqual({ attempt: 0, delayMs: BACKOFF.baseMs });
  }, 60_000);

  it('notices a connection the server forgot by its silence, reconnects and plays on', async () => {
    const { server, h, bot } = await playingBot();
    const mark = logLines.length;
    server.forgetClient(server.clientByName(NAME)!.id);
    tally.injected();
    await playsAgain(h, bot, server, 'the reconnect after the silence');
    expect(reconnectDelays(bot, mark).length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('backs off while the server is gone (doubling up to the ceiling) and is back once the server is', async () => {
    const { server, h, bot, song, rootSecret } = await playingBot();
    const port = server.port;
    const mark = logLines.length;
    await server.close();
    tally.injected();
    await h.waitFor(() => reconnectDelays(bot, mark).length >= 5, 20_000, 'five attempts in vain');
    const revived = await Ts3TestServer.start({ port, rootSecret });
    cleanups.push(() => revived.close());
    const status = await playsAgain(h, bot, revived, 'the reconnect once the server is back');
    expect(status.currentSong?.id).toBe(song.id);
    const delays = reconnectDelays(bot, mark);
    expect(delays).toEqual(
      delays.map((_, attempt) => ({ attempt, delayMs: reconnectDelayMs(attempt, BACKOFF) })),
    );
    expect(delays.slice(0, 5).map((d) => d.delayMs)).toEqual([100, 200, 400, 800, 800]);
  }, 60_000);
});
