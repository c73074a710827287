/**
 * Request forgery through the decoder's own demuxers, end to end: a song of platform `stream` played
 * over REST on a connected bot, with each decoder (ffmpeg, and the project's build/pcm-decoder). The
 * "radio" answers the probe honestly and the play with a manifest (HLS, DASH) naming a second loopback
 * listener, the trap (tests/helpers/forgery-server.ts). ffmpeg's HLS and DASH demuxers would fetch
 * what a manifest names themselves, past the guard; here no request may reach the trap: the decoder
 * reads only the relay, the relay regenerates an HLS playlist with its own addresses (and fetches
 * what it names through the guard, which refuses the private trap) and refuses any other manifest.
 * A control: an honest HLS playlist, sent with a type that is not a playlist's, still plays, its
 * segments fetched by the relay. And ffprobe, which reads a looked-up song's tags through a relay of
 * its own that passes answers on as they come, follows no manifest either (its format whitelist,
 * shared/sources/local/audio-probe.ts: UPLOAD_INPUT_OPTIONS, holds no playlist demuxer).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { STREAM_USER_AGENT } from '../../shared/sources/stream/stream-probe';
import { type Session, withAdminApp } from '../../testkit/accounts';
import { FFMPEG_LOCATION } from '../../testkit/audio-signals';
import { type ForgeryServers, startForgeryServers } from '../helpers/forgery-server';
import { enableStreamSource } from '../helpers/radio-server';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

// Only loopback servers can run here, so one loopback address stands in for a public host (the
// radio), and the guard judges every other address, the trap's 127.0.0.1 included, as it always does:
// in this thread (the probe) by this mock, and in the audio workers (the relay) by the same stand-in,
// which their module hooks put in place of the guard's address module there.
vi.mock('../../shared/net/public-address', async (original) =>
  (await import('../helpers/radio-server')).withPublicStandIn(await original()),
);
vi.mock('../../daemon/audio/engine/audio-worker-pool', async (original) => {
  const real = await original<typeof import('../../daemon/audio/engine/audio-worker-pool')>();
  const pool = new real.AudioWorkerPool({
    loaderHooks: [new URL('../helpers/public-stand-in-hooks.mjs', import.meta.url)],
  });
  return { ...real, audioWorkerPool: () => pool };
});

let servers: ForgeryServers;
beforeAll(async () => {
  servers = await startForgeryServers();
}, 30_000);
afterAll(() => servers?.close());

const DECODERS = [
  { decoder: 'ffmpeg', env: { AUDIO_DECODER: 'ffmpeg' } },
  { decoder: 'pcm-decoder', env: { AUDIO_DECODER: 'auto' } },
] as const;

describe.each(DECODERS)('a stream song decoded by $decoder', ({ decoder, env }) => {
  let app: VoiceApp;
  /** This run's first path segment at the radio (and the trap). */
  const run = decoder.replace('-', '');
  const botPath = () => ({ params: { path: { id: app.botId } } });
  const song = (kind: string): Song => ({
    id: `${servers.radioUrl}${run}/${kind}`,
    name: kind,
    artist: '',
    album: '',
    duration: 0,
    coverUrl: '',
    platform: 'stream',
  });
  const status = async () => (await app.admin.api.GET('/api/bot/{id}', botPath())).data;
  const play = async (played: Song) => {
    const answer = await app.admin.api.POST('/api/player/{botId}/play-song', {
      params: { path: { botId: app.botId } },
      body: { song: played },
    });
    expect(answer.response.status).toBe(200);
  };
  /** Requests the radio saw at a path (`<run>/<kind>`): a song's probe, then the relay's. */
  const fetchesOf = (path: string) => servers.radioRequests.filter((r) => r.path === `/${path}`);

  beforeAll(async () => {
    if (decoder === 'pcm-decoder') expect(existsSync(FFMPEG_LOCATION.decoderPath ?? '')).toBe(true);
    app = await startVoiceApp({ name: 'Radio', nickname: 'Radio Bot' }, env);
    await enableStreamSource(app.admin);
    expect((await app.admin.api.POST('/api/bot/{id}/start', botPath())).response.status).toBe(200);
  }, 60_000);
  afterAll(() => app?.close());

  // [the song's kind, the manifest that names the trap (a master playlist's variant), what it does]
  it.each([
    ['switch.m3u8', 'switch.m3u8', 'MP3 at the probe, then an HLS playlist sent as audio/mpegurl'],
    ['switch-bytes.m3u8', 'switch-bytes.m3u8', 'MP3 at the probe, then an HLS playlist as bytes'],
    ['dash', 'dash', 'MP3 at the probe, then a DASH manifest'],
    ['master.m3u8', 'variant.m3u8', 'an HLS master playlist whose variant comes as bytes'],
    ['tricks.m3u8', 'tricks.m3u8', 'HLS with an unquoted key URI and a line ended by a lone CR'],
  ])(
    '%s (%s: %s): nothing reaches the trap',
    async (kind, manifest) => {
      const played = song(kind);
      const trapped = () => servers.trapRequests.filter((r) => r.path.startsWith(`/${run}/${manifest}/`));
      await play(played);
      // The relay has fetched the manifest, and the decoder has had it: the track failed and the bot
      // moved on, or (a live playlist) it was fetched again, so the decoder had tried what it named;
      // or, were the hole open, the trap was reached.
      await expect
        .poll(
          async () => {
            if (trapped().length > 0) return 'trap reached';
            const now = await status();
            const gone = now?.currentSong?.id !== played.id || !now.playing;
            const fetched = fetchesOf(`${run}/${manifest}`).length;
            return (fetched >= 2 && gone) || fetched >= 3 ? 'done' : 'waiting';
          },
          { timeout: 20_000, interval: 200 },
        )
        .not.toBe('waiting');
      expect(trapped()).toEqual([]);
    },
    30_000,
  );

  it('an honest HLS playlist sent as application/octet-stream still plays, through the relay', async () => {
    const played = song('honest.m3u8');
    await play(played);
    await expect
      .poll(
        async () => {
          const now = await status();
          return now?.currentSong?.id === played.id && now.playing && now.elapsed > 1.5;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    const segments = servers.radioRequests.filter((r) => r.path.startsWith(`/${run}/seg`));
    expect(segments.length).toBeGreaterThan(0);
    // Every segment was the relay's request, none the decoder's own.
    expect(new Set(segments.map((r) => r.headers['user-agent']))).toEqual(new Set([STREAM_USER_AGENT]));
    expect(servers.trapRequests).toEqual([]);
    await app.admin.api.POST('/api/player/{botId}/stop', { params: { path: { botId: app.botId } } });
  }, 30_000);
});

describe('a stream song looked up (ffprobe reads its tags through a relay)', () => {
  let admin: Session;
  withAdminApp(async (_, session) => {
    admin = session;
    await enableStreamSource(admin);
  });

  it('MP3 at the probe, then an HLS playlist: ffprobe follows nothing it names', async () => {
    const address = `${servers.radioUrl}lookup/switch.m3u8`;
    const found = await admin.api.GET('/api/music/song/{id}', {
      params: { path: { id: address }, query: { platform: 'stream' } },
    });
    expect(found.response.status).toBe(200);
    // The probe, then ffprobe's reads through the tags relay, which got the playlist.
    expect(servers.radioRequests.filter((r) => r.path === '/lookup/switch.m3u8').length).toBeGreaterThan(1);
    expect(servers.trapRequests.filter((r) => r.path.startsWith('/lookup/'))).toEqual([]);
  });
});
