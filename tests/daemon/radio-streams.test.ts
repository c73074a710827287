/**
 * Platform `stream` on a connected bot, with the real stream source and the stand-in radio on
 * 127.0.0.1 (so `streamAllowPrivateHosts` is on): an Icecast station's StreamTitle, cut out of the
 * audio by the relay, becomes the now-playing title and follows a change mid-play; a live stream
 * refuses a seek (409); an HLS playlist plays, its segments fetched through the relay; a stream that
 * drops is opened again and plays on. A platform's live stream (a YouTube live, here a `video_b`
 * stand-in source whose answer says `live`) refuses a seek as well.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../shared/result';
import type { MusicSource } from '../../shared/sources/music-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { STREAM_USER_AGENT } from '../../shared/sources/stream/stream-probe';
import { StreamSource } from '../../shared/sources/stream/stream-source';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { type RadioServer, STATION_NAME, startRadioServer, stationSong } from '../helpers/radio-server';
import { DaemonHarness } from './harness';

let server: Ts3TestServer;
let h: DaemonHarness;
let radio: RadioServer;
let bot: string;

const station = (path: string) => stationSong(radio, path);

beforeAll(async () => {
  radio = await startRadioServer();
  server = await Ts3TestServer.start();
  h = await DaemonHarness.create(server);
  await h.setSettings({ streamAllowPrivateHosts: true });
  // A platform source whose stream is live, as the YouTube source says of a live video.
  const liveVideos: MusicSource = {
    platform: 'video_b',
    resolveStream: async () => ok({ input: { kind: 'url', url: `${radio.baseUrl}live` }, live: true }),
  };
  await h.startDaemon(new SourceRegistry([new StreamSource(h.db), liveVideos]));
  bot = await h.addBot(server.port, { name: 'Radio' });
  expect((await h.command(bot, 'start')).ok).toBe(true);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
  await radio?.close();
});

describe('internet radio on a connected bot', () => {
  it('shows the station title, follows its change mid-play, and refuses a seek', async () => {
    radio.setTitle('First Song');
    const live = station('live');
    expect((await h.command(bot, 'playSong', { song: live, requestedBy: 'alice' })).ok).toBe(true);
    await h.waitForStatus(
      bot,
      (s) => s.playing && s.currentSong?.name === 'First Song' && s.currentSong.artist === STATION_NAME,
      15_000,
      'the first StreamTitle',
    );
    radio.setTitle('Second Song');
    await h.waitForStatus(bot, (s) => s.currentSong?.name === 'Second Song', 15_000, 'the changed title');
    const seek = await h.command(bot, 'seek', { position: 10 });
    expect(seek).toMatchObject({ ok: false, status: 409 });
    // The probe's request at play time, then the relay's: the station gets the source's User-Agent
    // and the ICY ask, nothing else (a user's address has no login to send; node adds host, connection).
    const asked = radio.requestHeaders.filter((_, i) => radio.requests[i] === '/live');
    const sent = { host: new URL(radio.baseUrl).host, connection: 'keep-alive', 'icy-metadata': '1' };
    expect(asked[0]).toEqual({ ...sent, 'user-agent': STREAM_USER_AGENT });
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const headers of asked.slice(1))
      expect(headers).toEqual({ ...sent, 'accept-encoding': 'identity', 'user-agent': STREAM_USER_AGENT });
  }, 60_000);

  it('plays an HLS playlist, its segments through the relay', async () => {
    const hls = station('hls/live.m3u8');
    expect((await h.command(bot, 'playSong', { song: hls, requestedBy: 'alice' })).ok).toBe(true);
    await h.waitForStatus(bot, (s) => s.currentSong?.id === hls.id && s.elapsed > 1.5, 20_000, 'HLS playing');
    expect(radio.requests.some((path) => path === '/hls/seg1.ts')).toBe(true);
  }, 60_000);

  it('opens a dropped stream again and plays on', async () => {
    // The probe at play time takes the first short connection, the relay the second.
    radio.dropsLeft = 2;
    const drops = station('drops');
    const before = radio.requests.filter((p) => p === '/drops').length;
    expect((await h.command(bot, 'playSong', { song: drops, requestedBy: 'alice' })).ok).toBe(true);
    await h.waitForStatus(bot, (s) => s.currentSong?.id === drops.id && s.elapsed > 4, 30_000, 'playing on');
    // The probe, the relay's first connection (cut after a second) and its reconnection.
    expect(radio.requests.filter((p) => p === '/drops').length - before).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('refuses a seek in a platform’s live stream too (409)', async () => {
    const video = { ...station('live'), id: 'l1veRad1o00', platform: 'video_b' as const, name: 'A live' };
    expect((await h.command(bot, 'playSong', { song: video, requestedBy: 'alice' })).ok).toBe(true);
    await h.waitForStatus(
      bot,
      (s) => s.currentSong?.id === video.id && s.elapsed > 0.5,
      20_000,
      'live video',
    );
    expect(await h.command(bot, 'seek', { position: 10 })).toMatchObject({ ok: false, status: 409 });
  }, 60_000);
});
