/**
 * The bot's lifecycle around the daemon: reconnecting after the server vanishes, autostart with a
 * restored queue snapshot, persisted volume and mode, channel awareness and the profile updater.
 */

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { PROFILE_DISABLED } from '../../daemon/bots/profile/profile-updater';
import type { Ts3Client } from '../../daemon/ts3';
import type { ProfileConfigRow } from '../../shared/db/schema';
import { queueSnapshots } from '../../shared/db/schema';
import { FFMPEG } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { makeClient } from '../ts3/helpers';
import { DaemonHarness } from './harness';
import { frequencyOf, heard, samplesBetween } from './heard';

/** Every profile feature switched on. */
const PROFILE_ALL_ON = Object.fromEntries(
  Object.keys(PROFILE_DISABLED).map((k) => [k, true]),
) as unknown as ProfileConfigRow;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(ts3 = {}) {
  const rootSecret = randomBytes(32);
  const server = await Ts3TestServer.start({ rootSecret });
  const h = await DaemonHarness.create(server, ts3);
  await h.startDaemon();
  cleanups.push(
    () => server.close().catch(() => undefined),
    () => h.close(),
  );
  return { server, h, rootSecret };
}

describe('bot lifecycle', () => {
  it('reconnects with the same identity after the server vanishes, keeps the queue and plays on', async () => {
    const { server, h, rootSecret } = await setup({
      lossTimeoutMs: 2000,
      backoff: { baseMs: 300, maxMs: 1000 },
    });
    const bot = await h.addBot(server.port, { name: 'Survivor' });
    const song = await h.toneSong('long', [{ frequencyHz: 500, seconds: 30 }]);
    const other = await h.toneSong('other', [{ frequencyHz: 700, seconds: 5 }]);
    await h.command(bot, 'start');
    const uid = server.clientByName('Survivor')?.uid;
    await h.command(bot, 'addSong', { song, requestedBy: 'alice' });
    await h.command(bot, 'addSong', { song: other, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.elapsed > 1, 4000, 'playing');
    const port = server.port;
    await server.close();
    await h.waitForStatus(bot, (s) => !s.connected, 8000, 'the loss noticed');
    const revived = await Ts3TestServer.start({ port, rootSecret });
    cleanups.push(() => revived.close());
    const status = await h.waitForStatus(bot, (s) => s.connected && s.playing, 15_000, 'reconnected');
    expect(status.queueSize).toBe(2);
    expect(status.currentSong?.id).toBe(song.id);
    expect(status.elapsed).toBeGreaterThan(0.9);
    const client = revived.clientByName('Survivor');
    expect(client?.uid).toBe(uid);
    await h.waitFor(
      () => (revived.voiceStats(client?.id ?? -1)?.packets ?? 0) > 40,
      5000,
      'voice after reconnect',
    );
    const sound = heard(revived, client?.id ?? -1);
    expect(Math.abs(frequencyOf(samplesBetween(sound, 0, performance.now())) - 500)).toBeLessThan(5);
  }, 40_000);

  it('autostarts, restores volume, mode and the queue snapshot on a daemon restart; stop deletes it', async () => {
    const { server, h } = await setup();
    await h.setSettings({ savedQueuesEnabled: true });
    const bot = await h.addBot(server.port, { name: 'Phoenix', autoStart: true });
    await h.waitForStatus(bot, (s) => s.connected, 10_000, 'autostart on botCreated');
    const songs = await Promise.all(
      [1, 2].map((n) => h.toneSong(`s${n}`, [{ frequencyHz: 400 + n * 100, seconds: 20 }])),
    );
    await h.command(bot, 'loadSongs', { songs, mode: 'replace', requestedBy: 'carol', label: 'two' });
    await h.command(bot, 'volume', { volume: 35 });
    await h.command(bot, 'mode', { mode: 'loop' });
    await h.command(bot, 'next');
    await h.waitForStatus(bot, (s) => s.elapsed > 1.2, 4000, 'second song playing');
    await h.stopDaemon();
    const snapshot = await h.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, bot) });
    expect(snapshot).toMatchObject({ currentIndex: 1 });
    expect(snapshot?.positionSeconds).toBeGreaterThanOrEqual(1);

    await h.startDaemon();
    const status = await h.waitForStatus(
      bot,
      (s) => s.connected && s.playing,
      10_000,
      'restored and playing',
    );
    expect(status).toMatchObject({
      volume: 35,
      playMode: 'loop',
      queueSize: 2,
      currentSong: { id: songs[1]?.id },
    });
    expect(status.elapsed).toBeGreaterThanOrEqual(1);
    expect((await h.command(bot, 'queue')).data).toMatchObject({ queue: [{ requestedBy: 'carol' }, {}] });
    await h.command(bot, 'stop');
    await h.waitFor(
      async () => !(await h.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, bot) })),
      2000,
      'snapshot deleted',
    );
  }, 40_000);

  it('pauses when the channel empties and resumes when someone returns; a manual pause wins', async () => {
    const { server, h } = await setup();
    const bot = await h.addBot(server.port, { name: 'Watcher', defaultChannel: 'Lobby' });
    const song = await h.toneSong('watch', [{ frequencyHz: 500, seconds: 30 }]);
    const join = async (): Promise<Ts3Client> => {
      const listener = makeClient(server.port, server.rootPublicKey, {
        nickname: 'Listener',
        defaultChannel: 'Lobby',
      });
      await listener.connect();
      cleanups.push(() => listener.disconnect());
      return listener;
    };
    let listener = await join();
    await h.command(bot, 'start');
    await h.command(bot, 'playSong', { song, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.playing, 4000, 'playing');
    await listener.disconnect();
    await h.waitForStatus(bot, (s) => s.paused, 6000, 'auto-paused');
    listener = await join();
    await h.waitForStatus(bot, (s) => s.playing, 4000, 'auto-resumed');
    await h.command(bot, 'pause');
    await listener.disconnect();
    await new Promise((r) => setTimeout(r, 300));
    listener = await join();
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.status(bot)).toMatchObject({ paused: true, playing: false });
  }, 40_000);

  it('shows the song in its profile while playing and restores the defaults on stop', async () => {
    const { server, h } = await setup();
    const cover = await serveCoverArt();
    cleanups.push(() => new Promise<void>((r) => cover.server.close(() => r())));
    // A cover on a private host is fetched only from the admin's own Jellyfin server (or with private
    // hosts allowed): this loopback one stands for a Jellyfin server on the LAN.
    const jellyfin = {
      serverUrl: new URL(cover.url).origin,
      authMode: 'apikey',
      username: '',
      password: 'k',
    };
    await h.setSettings({ jellyfin });
    const bot = await h.addBot(server.port, {
      name: 'Profiled',
      defaultChannel: 'Lobby',
      profileConfig: PROFILE_ALL_ON,
    });
    const base = await h.toneSong('A rather long song title for the nickname', [
      { frequencyHz: 500, seconds: 20 },
    ]);
    const song = { ...base, coverUrl: cover.url };
    const announced = new Promise<string>((resolve) =>
      server.on('textMessage', (m) => m.message.startsWith('Now playing') && resolve(m.message)),
    );
    const avatar = new Promise<{ bytes: number }>((resolve) => server.on('avatarUploaded', resolve));
    await h.command(bot, 'start');
    const id = server.clientByName('Profiled')?.id;
    await h.command(bot, 'playSong', { song, requestedBy: 'dora' });
    expect(await announced).toBe('Now playing: A rather long song title for the nickname - tests');
    expect((await avatar).bytes).toBeLessThanOrEqual(200 * 1024);
    const me = () => server.clients.find((c) => c.id === id);
    await h.waitFor(() => me()?.nickname.startsWith('Profiled | A rather') ?? false, 3000, 'nickname');
    expect([...(me()?.nickname ?? '')].length).toBeLessThanOrEqual(30);
    expect(me()?.description).toContain('Now playing: A rather long');
    const lobby = [...server.channels.values()].find((c) => c.name === 'Lobby');
    await h.waitFor(
      () => lobby?.description.includes('Requested by dora') ?? false,
      3000,
      'channel description',
    );
    await h.command(bot, 'pause');
    await h.waitFor(() => me()?.away === true, 3000, 'away while paused');
    await h.command(bot, 'resume');
    await h.waitFor(() => me()?.away === false, 3000, 'back from away');
    await h.command(bot, 'stop');
    expect(lobby?.description).toBe('');
    expect(server.clientByName('Profiled')).toBeUndefined();
  }, 40_000);
});

/** A PNG cover (ffmpeg's test pattern, 600×600) on a loopback HTTP server. */
async function serveCoverArt(): Promise<{ server: Server; url: string }> {
  const png = spawnSync(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=600x600',
    '-frames:v',
    '1',
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    'pipe:1',
  ]).stdout;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}/cover.png` };
}
