/**
 * The `library_a` (Jellyfin) source against an msw stand-in for the server: the audio URL for each
 * quality (the original file, or a bitrate-capped universal stream), the token in Jellyfin's own
 * header (never in the URL, which would reach a command line) and accepted by the server, and the
 * playback reports.
 */
import { describe, expect, it } from 'vitest';
import { FFMPEG_USER_AGENT, useAudioHosts } from '../../../tests/helpers/audio-request';
import { ALICE, JELLYFIN_URL, useJellyfinAsAlice } from '../../../tests/helpers/jellyfin-api';
import type { Quality } from '../../domain/constants';
import type { StreamInput } from '../music-source';
import { JellyfinSource } from './jellyfin-source';

// Recorded before the Jellyfin stand-in, which then serves the audio itself.
const audioHosts = useAudioHosts(new RegExp(`^${JELLYFIN_URL}/Audio/.*`), 'platform');
const { api, jellyfin } = useJellyfinAsAlice();
const SONG_ID = 'c0000000000000000000000000000001';
const source = new JellyfinSource(jellyfin.newClient());

async function resolvedStream(quality?: Quality): Promise<{ url: URL; authorization: string }> {
  const result = await source.resolveStream({
    id: SONG_ID,
    platform: 'library_a',
    ...(quality && { quality }),
  });
  if (!result.ok) throw new Error(result.error);
  const input: StreamInput = result.value.input;
  if (input.kind !== 'url') throw new Error('not a URL');
  const authorization = input.headers?.authorization ?? '';
  expect(Object.keys(input.headers ?? {})).toEqual(['authorization']);
  return { url: new URL(input.url), authorization };
}

async function resolvedUrl(quality?: Quality): Promise<URL> {
  return (await resolvedStream(quality)).url;
}

describe('Jellyfin source: audio URLs', () => {
  it('plays the original file by default and for the lossless qualities', async () => {
    for (const quality of [undefined, 'direct', 'lossless', 'hires', 'master'] as const) {
      const url = await resolvedUrl(quality);
      expect(`${url.origin}${url.pathname}`).toBe(`${JELLYFIN_URL}/Audio/${SONG_ID}/stream`);
      expect(Object.fromEntries(url.searchParams)).toEqual({ static: 'true' });
    }
  });

  it('caps the lossy qualities through the universal endpoint, transcoding to MP3 over HTTP', async () => {
    const bitrates = { standard: '128000', higher: '192000', exhigh: '320000' } as const;
    for (const [quality, bitrate] of Object.entries(bitrates) as [Quality, string][]) {
      const url = await resolvedUrl(quality);
      expect(`${url.origin}${url.pathname}`).toBe(`${JELLYFIN_URL}/Audio/${SONG_ID}/universal`);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        UserId: ALICE.id,
        DeviceId: 'ts3-music-bot',
        MaxStreamingBitrate: bitrate,
        Container: 'mp3,aac,m4a|aac,m4b|aac,ogg,opus,webma',
        TranscodingContainer: 'mp3',
        TranscodingProtocol: 'http',
        AudioCodec: 'mp3',
        PlaySessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
    }
  });

  it('hands out the token in the MediaBrowser header the server accepts, renewed after expiry', async () => {
    const first = await resolvedStream();
    expect(first.authorization).toMatch(/^MediaBrowser .*Token="usertoken1"/);
    expect((await fetch(first.url)).status).toBe(401);
    const played = await fetch(first.url, { headers: { authorization: first.authorization } });
    expect(played.status).toBe(200);
    expect(played.headers.get('content-type')).toBe('audio/mpeg');

    api.expireTokens();
    const renewed = await resolvedStream('standard');
    expect(renewed.authorization).toMatch(/Token="usertoken2"/);
    expect((await fetch(renewed.url, { headers: { authorization: renewed.authorization } })).status).toBe(
      200,
    );
  });

  it('sends the token to the configured server only, which is both the API and the audio host', async () => {
    const result = await source.resolveStream({ id: SONG_ID, platform: 'library_a' });
    // The relay's request itself: the token goes to the server the admin configured (the same host
    // the API calls go to), in Jellyfin's header, never in the URL; ffmpeg's agent is passed on.
    expect(await audioHosts.play(result)).toEqual({
      url: `${JELLYFIN_URL}/Audio/${SONG_ID}/stream?static=true`,
      headers: {
        'accept-encoding': 'identity',
        authorization: expect.stringMatching(/^MediaBrowser .*Token="usertoken1"/),
        'user-agent': FFMPEG_USER_AGENT,
      },
    });
  });

  it("gives the song's loudness from the server's normalization gain, and none where it has none", async () => {
    // The fixture's song is -7.23 dB from Jellyfin's -18 LUFS reference, whatever the quality.
    for (const quality of [undefined, 'exhigh'] as const) {
      const result = await source.resolveStream({ id: SONG_ID, platform: 'library_a', quality });
      expect(result.ok && result.value.loudness).toEqual({ integratedLufs: -10.77, source: 'platform' });
    }
    // The look-up that finds the song is the one that carries the figure: no field is asked for.
    const lookUp = api.requests.find((r) => r.path === '/Items');
    expect(lookUp?.query).toEqual({ Ids: SONG_ID, userId: ALICE.id });
    // A song the server has not measured and whose file has no ReplayGain tag.
    const unmeasured = await source.resolveStream({
      id: 'c0000000000000000000000000000002',
      platform: 'library_a',
    });
    expect(unmeasured.ok).toBe(true);
    expect(unmeasured.ok && 'loudness' in unmeasured.value).toBe(false);
  });

  it('refuses unknown songs and an unconfigured server with readable sentences', async () => {
    const unknown = '0000000000000000000000000000beef';
    expect(await source.resolveStream({ id: unknown, platform: 'library_a' })).toEqual({
      ok: false,
      error: `Jellyfin does not know the song ${unknown}`,
    });
    await jellyfin.configure({ serverUrl: '' });
    expect(await source.resolveStream({ id: SONG_ID, platform: 'library_a' })).toEqual({
      ok: false,
      error: 'Jellyfin is not configured',
    });
  });
});

describe('Jellyfin source: playback reports', () => {
  it('reports start, progress and stop with ticks and the stream’s play session', async () => {
    const url = await resolvedUrl('higher');
    const playSessionId = url.searchParams.get('PlaySessionId');
    await source.reportPlayback({ kind: 'started', songId: SONG_ID });
    await source.reportPlayback({ kind: 'progress', songId: SONG_ID, positionSeconds: 12.5, paused: true });
    await source.reportPlayback({ kind: 'stopped', songId: SONG_ID, positionSeconds: 61 });
    const reports = api.requests.filter((r) => r.path.startsWith('/Sessions/Playing'));
    expect(reports.map((r) => [r.path, r.body])).toEqual([
      [
        '/Sessions/Playing',
        {
          ItemId: SONG_ID,
          PlaySessionId: playSessionId,
          PlayMethod: 'Transcode',
          CanSeek: false,
          PositionTicks: 0,
          IsPaused: false,
        },
      ],
      [
        '/Sessions/Playing/Progress',
        {
          ItemId: SONG_ID,
          PlaySessionId: playSessionId,
          PlayMethod: 'Transcode',
          CanSeek: false,
          PositionTicks: 125_000_000,
          IsPaused: true,
        },
      ],
      [
        '/Sessions/Playing/Stopped',
        { ItemId: SONG_ID, PlaySessionId: playSessionId, PositionTicks: 610_000_000 },
      ],
    ]);
    expect(reports.every((r) => r.auth.Token === 'usertoken1')).toBe(true);
  });

  it('reports the original file as direct play', async () => {
    await resolvedUrl('direct');
    await source.reportPlayback({ kind: 'started', songId: SONG_ID });
    expect(api.to('/Sessions/Playing')[0]!.body).toMatchObject({ PlayMethod: 'DirectPlay' });
  });

  it('never throws when a report fails', async () => {
    api.answer('POST /Sessions/Playing', () => new Response(null, { status: 500 }));
    await expect(source.reportPlayback({ kind: 'started', songId: SONG_ID })).resolves.toBeUndefined();
    await jellyfin.configure({ serverUrl: '' });
    await expect(
      source.reportPlayback({ kind: 'progress', songId: SONG_ID, positionSeconds: 3, paused: false }),
    ).resolves.toBeUndefined();
  });
});
