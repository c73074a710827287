/**
 * A Spotify track is what the voice server hears: a connected bot plays a `streaming_a` song, the
 * source starts the fake librespot (tests/fakes/librespot.mjs) with librespot's command line, tells
 * the msw stand-in of Spotify's Web API to play the track on that device, and relays the fake's PCM
 * (a 440 Hz sine, S16LE 44.1 kHz stereo) through the daemon's ffmpeg and Opus encoder to the TS3 test
 * server, where it is decoded and measured. Without librespot, or with one that cannot log in, the
 * song is a readable failure and nothing crashes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_SECONDS } from '../../../daemon/audio/pcm-format';
import { Daemon } from '../../../daemon/daemon';
import { parseLicenseRoot } from '../../../daemon/ts3';
import { type Session, setupAdmin } from '../../../testkit/accounts';
import { FFMPEG_LOCATION } from '../../../testkit/audio-signals';
import { startTestApp, type TestApp } from '../../../testkit/test-app';
import { Ts3TestServer } from '../../../testkit/ts3-server/ts3-test-server';
import { frequencyOf, heard, rms } from '../../../tests/daemon/heard';
import {
  FAKE_LIBRESPOT,
  type Registration,
  spotifySettings,
  storeSpotifySettings,
  useSpotifyApi,
} from '../../../tests/helpers/spotify-api';
import type { Song } from '../../domain/schemas';
import { renderPhrase, say } from '../../i18n/phrases';
import { refusalKind } from '../http/refusals';
import { sourceContextOf } from '../platform-modules';
import { SourceRegistry } from '../source-registry';
import { storedSpotifyClient } from './spotify-client';
import { SpotifySource } from './spotify-source';
import { storedSpotifyTokens } from './spotify-token-store';

const spotify = useSpotifyApi();
const TRACK_SECONDS = 3;
const FREQUENCY_HZ = 440;
const SONG: Song = {
  id: '4TrackNightFerry000001',
  name: 'Night Ferry',
  artist: 'Lantern Bay / Mira Sol',
  album: 'Harbor Lights',
  duration: TRACK_SECONDS,
  coverUrl: '',
  platform: 'streaming_a',
};
/** Opus Music (stereo, 48 kHz) in TeamSpeak's codec enum. */
const OPUS_MUSIC_CODEC = 5;

let server: Ts3TestServer;
let t: TestApp;
let daemon: Daemon;
let source: SpotifySource;
let admin: Session;
let botId: string;

beforeAll(async () => {
  server = await Ts3TestServer.start();
  const root = parseLicenseRoot(server.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  t = await startTestApp({ withDaemon: false, env: { LIBRESPOT_PATH: FAKE_LIBRESPOT } });
  source = new SpotifySource(storedSpotifyClient(t.db), { path: FAKE_LIBRESPOT });
  daemon = new Daemon({
    db: t.db,
    bus: t.bus,
    daemonId: 'spotify-daemon',
    sourceContext: sourceContextOf(t.db, t.config),
    ts3: { licenseRoot: root.value },
    ffmpeg: FFMPEG_LOCATION,
    sources: new SourceRegistry([source]),
  });
  await daemon.start();
  admin = await setupAdmin(t);
  const created = await admin.api.POST('/api/bot', {
    body: { name: 'Spotify', nickname: 'Spotify Bot', serverAddress: '127.0.0.1', serverPort: server.port },
  });
  botId = created.data!.id;
  await storeSpotifySettings(t.db, spotifySettings({ bitrate: 160, deviceName: 'Deck Radio' }));
  await spotify.storeLogin(t.db);
  // The login librespot is handed is checked once, by the first song (its own test below): a play
  // waits for that check, which on a loaded two-core machine can pass the bus's 4 s deadline.
  expect((await source.resolveStream({ id: SONG.id, platform: 'streaming_a' })).ok).toBe(true);
  const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
  expect(started.data).toMatchObject({ connected: true });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await source?.close();
  await t?.close();
  await server?.close();
});

const bot = () => ({ params: { path: { botId } } });
const status = async () => (await admin.api.GET('/api/player/{botId}/queue', bot())).data?.status;

describe('a streaming_a song on a connected bot', () => {
  it('plays the track through librespot and reaches the voice server as decodable Opus of its length and tone', async () => {
    const played = await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song: SONG } });
    expect(played.response.status).toBe(200);
    await expect.poll(async () => (await status())?.playing, { timeout: 15_000, interval: 50 }).toBe(true);
    await expect
      .poll(async () => (await status())?.playing, { timeout: TRACK_SECONDS * 1000 + 10_000, interval: 100 })
      .toBe(false);

    // The track over, its librespot was stopped.
    expect(spotify.registrations()).toEqual([]);
    const play = spotify.requests.find((r) => r.path === '/v1/me/player/play');
    expect(play?.body).toEqual({ uris: ['spotify:track:4TrackNightFerry000001'] });
    expect(play?.query.device_id).toMatch(/^device-\d+$/);

    const clientId = server.clientByName('Spotify Bot')?.id ?? -1;
    await expect
      .poll(() => server.voiceStats(clientId)?.endPackets ?? 0, { timeout: 3000 })
      .toBeGreaterThan(0);
    const stats = server.voiceStats(clientId)!;
    expect(stats.decodeErrors).toBe(0);
    expect(stats.codec).toBe(OPUS_MUSIC_CODEC);
    expect(Math.abs(stats.decodedSeconds - TRACK_SECONDS)).toBeLessThanOrEqual(0.3);
    const sound = heard(server, clientId);
    expect(rms(sound.mono)).toBeGreaterThan(0.01);
    expect(Math.abs(frequencyOf(sound.mono) - FREQUENCY_HZ)).toBeLessThanOrEqual(3);
    expect(stats.packets * FRAME_SECONDS).toBeGreaterThanOrEqual(TRACK_SECONDS - 0.3);
  }, 40_000);

  it('runs librespot with its documented options and keeps the token off the command line', async () => {
    const registered: Registration[] = [];
    const resolved = await source.resolveStream({ id: SONG.id, platform: 'streaming_a' });
    expect(resolved.ok).toBe(true);
    const url = resolved.ok && resolved.value.input.kind === 'url' ? resolved.value.input.url : '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/librespot\/[\w-]+\.wav$/);
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    registered.push(...spotify.registrations());
    controller.abort();
    const [run] = registered;
    expect(run?.name).toMatch(/^Deck Radio [0-9a-f]{6}$/);
    expect(run?.args).toEqual([
      ...['--name', run?.name],
      ...['--bitrate', '160'],
      ...['--backend', 'pipe'],
      ...['--format', 'S16'],
      '--disable-audio-cache',
      '--disable-discovery',
      ...['--initial-volume', '100'],
      ...['--volume-ctrl', 'fixed'],
      ...['--autoplay', 'off'],
    ]);
    const stored = (await storedSpotifyTokens(t.db).load())?.accessToken ?? 'none';
    expect(run?.accessToken).toBe(stored);
    expect(run?.args.join(' ')).not.toContain(stored);
    // The request gone, its librespot is stopped.
    await expect.poll(() => spotify.registrations().length, { timeout: 3000 }).toBe(0);
  });

  it('refuses to resume the stream from a later byte, so a dropped connection is not restarted', async () => {
    const resolved = await source.resolveStream({ id: SONG.id, platform: 'streaming_a' });
    const url = resolved.ok && resolved.value.input.kind === 'url' ? resolved.value.input.url : '';
    const response = await fetch(url, { headers: { range: 'bytes=1000-' } });
    expect(response.status).toBe(416);
    expect(spotify.registrations()).toHaveLength(0);
  });
});

describe('when librespot cannot play', () => {
  it('says the sidecar is not installed, without a crash', async () => {
    const missing = new SpotifySource(storedSpotifyClient(t.db), { path: '/nonexistent/librespot' });
    expect(await missing.resolveStream({ id: SONG.id, platform: 'streaming_a' })).toEqual({
      ok: false,
      error:
        'the Spotify sidecar (librespot) is not installed (nothing at /nonexistent/librespot; fix LIBRESPOT_PATH)',
    });
  });

  it('names an unknown track before starting anything', async () => {
    expect(await source.resolveStream({ id: '4TrackUnknown000000000', platform: 'streaming_a' })).toEqual({
      ok: false,
      error: 'Spotify has no such track (4TrackUnknown000000000)',
    });
  });

  it('says in plain words, from the first refused song on, that Spotify refused the token, in the play receipt (what !play answers in chat)', async () => {
    process.env.FAKE_LIBRESPOT_MODE = 'crash';
    // A token librespot has not logged in with yet: the bot's source checks it before the song plays.
    await spotify.storeLogin(t.db);
    const said = "Spotify refused the login the bot's player was given (librespot: Bad credentials)";
    try {
      const played = await admin.api.POST('/api/player/{botId}/play-song', {
        ...bot(),
        body: { song: SONG },
        headers: { 'accept-language': 'en' },
      });
      const receipt = JSON.stringify(played.data ?? played.error);
      expect(receipt).toContain('Spotify did not accept the login the bot gave its player (librespot)');
      expect(receipt).toContain('Log in with librespot');
      expect(receipt).not.toMatch(/could not be decoded/);
      expect((await status())?.playing).toBe(false);
      expect((await status())?.connected).toBe(true);

      // The words of its kind, in both languages, offer librespot's own login.
      expect(refusalKind(said)).toBe('tokenRefused');
      expect(renderPhrase(say.platformTokenRefused('streaming_a', said), 'zh')).toMatch(
        /^Spotify不接受机器人交给播放器（librespot）的登录.*用 librespot 登录/,
      );
      // The next song on that token says so at once, without starting librespot again.
      const refusing = new SpotifySource(storedSpotifyClient(t.db), { path: FAKE_LIBRESPOT });
      try {
        expect(await refusing.resolveStream({ id: SONG.id, platform: 'streaming_a' })).toEqual({
          ok: false,
          error: said,
        });
        const started = spotify.registrations().length;
        expect(await refusing.resolveStream({ id: SONG.id, platform: 'streaming_a' })).toEqual({
          ok: false,
          error: said,
        });
        expect(spotify.registrations()).toHaveLength(started);
      } finally {
        await refusing.close();
      }
    } finally {
      delete process.env.FAKE_LIBRESPOT_MODE;
    }
  }, 30_000);
});
