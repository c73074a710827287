/**
 * The `video_b` source resolving a song to its best audio format through the fake yt-dlp in
 * tests/fakes/; the last test lets the daemon's decoder (its stream relay, then ffmpeg) fetch the
 * resolved URL from a loopback server, so the URL and headers are shown to reach a real decoder.
 * A live video resolves to an HLS playlist, which plays through the relay: its segments are fetched
 * by the relay (with yt-dlp's User-Agent), never by the decoder's own HLS demuxer.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decoder } from '../../../daemon/audio/decode/decoder';
import { BYTES_PER_SECOND } from '../../../daemon/audio/pcm-format';
import { FFMPEG, FFMPEG_LOCATION } from '../../../testkit/audio-signals';
import { FAKE_YTDLP, useFakeYtDlp } from '../../../tests/fakes/fake-yt-dlp';
import { type AudioCdn, renderTone, startAudioCdn } from '../../../tests/helpers/audio-cdn';
import { useAudioHosts } from '../../../tests/helpers/audio-request';
import { YoutubeSource } from './youtube-source';
import { YtDlp } from './yt-dlp';

const fake = useFakeYtDlp();
const audioHosts = useAudioHosts(/^https?:\/\/[\w-]+\.googlevideo\.com\/.*/);
const source = new YoutubeSource(new YtDlp(FAKE_YTDLP));
const SONG = { id: 'pApErB0ats1', platform: 'video_b' } as const;
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const googlevideo = (itag: string) =>
  expect.stringMatching(
    new RegExp(`^https://rr3---sn-fixture0\\.googlevideo\\.com/videoplayback\\?.*&itag=${itag}&`),
  );
const TONE_SECONDS = 2;
let cdn: AudioCdn;

beforeAll(async () => {
  cdn = await startAudioCdn(TONE_SECONDS);
});

afterAll(async () => {
  await cdn?.close();
});

describe('YouTube source', () => {
  it('resolves the best WebM audio format with the User-Agent yt-dlp says it needs', async () => {
    const result = await source.resolveStream(SONG);
    expect(fake.runs().map((run) => run.args)).toEqual([
      [
        ...['-f', 'bestaudio[ext=webm]/bestaudio/best', '--dump-single-json', '--no-playlist'],
        ...['--', 'https://www.youtube.com/watch?v=pApErB0ats1'],
      ],
    ]);
    expect(result).toEqual({
      ok: true,
      value: { input: { kind: 'url', url: googlevideo('251'), headers: { userAgent: USER_AGENT } } },
    });
  });

  it('resolves a song stored as a link', async () => {
    const result = await source.resolveStream({ ...SONG, id: 'https://youtu.be/r0adTr1p_04' });
    expect(fake.runs()[0]!.args.at(-1)).toBe('https://www.youtube.com/watch?v=r0adTr1p_04');
    expect(result).toMatchObject({ ok: true, value: { input: { kind: 'url', url: googlevideo('251') } } });
  });

  it('takes the audio part when yt-dlp answers with a merged video+audio choice', async () => {
    fake.set('FAKE_YTDLP_MODE', 'merged');
    expect(await source.resolveStream(SONG)).toMatchObject({
      ok: true,
      value: { input: { url: googlevideo('251'), headers: { userAgent: USER_AGENT } } },
    });
  });

  it('says in plain words why YouTube will not play a video', async () => {
    expect(await source.resolveStream({ ...SONG, id: 'zzzzzzzzzzz' })).toEqual({
      ok: false,
      error: 'YouTube has no such video any more (it was removed or never existed)',
    });
    expect(await source.resolveStream({ ...SONG, id: 'r0adTr1p_03' })).toEqual({
      ok: false,
      error: 'This YouTube video is private: only accounts its owner invited can watch it',
    });
  });

  it.each(['--exec=rm', '--exec=rm -rf /', '-o/tmp/x', 'https://evil.example/watch?v=pApErB0ats1'])(
    'refuses %j before running yt-dlp',
    async (id) => {
      expect(await source.resolveStream({ ...SONG, id })).toEqual({
        ok: false,
        error: `"${id}" is not a YouTube video id or link`,
      });
      expect(fake.runs()).toEqual([]);
    },
  );

  it('says yt-dlp is not installed when it is missing', async () => {
    const missing = new YoutubeSource(new YtDlp(join(FAKE_YTDLP, '..', 'no-such-yt-dlp')));
    expect(await missing.resolveStream(SONG)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^yt-dlp is not installed/),
    });
  });

  it('gives up on a yt-dlp that hangs, and on one that prints garbage', async () => {
    fake.set('FAKE_YTDLP_MODE', 'hang');
    const impatient = new YoutubeSource(new YtDlp(FAKE_YTDLP, { timeoutMs: 1_000 }));
    expect(await impatient.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'yt-dlp did not answer within 1 s',
    });
    fake.set('FAKE_YTDLP_MODE', 'garbage');
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'yt-dlp answered with something that is not JSON',
    });
  });

  it('refuses an audio URL that is not a web URL (ffmpeg would open it as a file)', async () => {
    fake.set('FAKE_YTDLP_AUDIO_URL', 'file:///etc/passwd');
    expect(await source.resolveStream(SONG)).toEqual({
      ok: false,
      error: 'yt-dlp answered in an unexpected shape',
    });
  });

  it('hands the decoder a URL and headers it can play', async () => {
    fake.set('FAKE_YTDLP_AUDIO_URL', `${cdn.baseUrl}videoplayback?itag=251&id=pApErB0ats1`);
    const result = await source.resolveStream(SONG);
    if (!result.ok) throw new Error(result.error);
    const decoder = new Decoder({ ffmpegPath: FFMPEG, input: result.value.input });
    expect((await once(decoder, 'exit'))[0]).toEqual({ kind: 'finished' });
    expect(decoder.pcm.byteLength / BYTES_PER_SECOND).toBeCloseTo(TONE_SECONDS, 0);
    expect(cdn.requests.map((r) => [r.url, r.headers['user-agent']])).toEqual([
      ['/videoplayback?itag=251&id=pApErB0ats1', USER_AGENT],
    ]);
  });

  it('sends the googlevideo host only the User-Agent yt-dlp names, no login', async () => {
    const result = await source.resolveStream(SONG);
    // The relay's request itself: the URL is signed; the YouTube login stays with yt-dlp.
    expect(await audioHosts.play(result)).toEqual({
      url: googlevideo('251'),
      headers: { 'accept-encoding': 'identity', 'user-agent': USER_AGENT },
    });
  });

  it('marks a live video’s HLS format as an HLS stream, and the stream as live (no seeking)', async () => {
    const result = await source.resolveStream({ ...SONG, id: LIVE_ID });
    expect(result).toEqual({
      ok: true,
      value: {
        input: {
          kind: 'url',
          url: expect.stringMatching(
            /^https:\/\/manifest\.googlevideo\.com\/api\/manifest\/hls_playlist\/.*\/itag\/95\/.*\/playlist\/index\.m3u8$/,
          ),
          headers: { userAgent: USER_AGENT },
          hls: true,
        },
        live: true,
      },
    });
  });

  it.each([
    ['ffmpeg', FFMPEG],
    ['build/pcm-decoder', FFMPEG_LOCATION.decoderPath ?? 'build/pcm-decoder'],
  ])(
    'plays a live video’s HLS playlist with %s, every segment fetched by the relay with yt-dlp’s User-Agent',
    async (_, decoderPath) => {
      const live = await startLiveHls(3);
      try {
        fake.set('FAKE_YTDLP_AUDIO_URL', `${live.baseUrl}${LIVE_PLAYLIST_PATH}`);
        const result = await source.resolveStream({ ...SONG, id: LIVE_ID });
        if (!result.ok) throw new Error(result.error);
        // Room for the whole stream: nothing reads the PCM here, and a full buffer would pause ffmpeg.
        const buffer = { highWaterBytes: 16 * BYTES_PER_SECOND, lowWaterBytes: BYTES_PER_SECOND };
        const decoder = new Decoder({ ffmpegPath: decoderPath, input: result.value.input, buffer });
        const [exit] = await once(decoder, 'exit');
        expect(exit, decoder.stderrTail).toEqual({ kind: 'finished' });
        expect(decoder.pcm.byteLength / BYTES_PER_SECOND).toBeCloseTo(3 * SEGMENT_SECONDS, 0);
        const segments = live.requests.filter((r) => r.url.includes('/sq/'));
        expect(segments.map((r) => r.url)).toEqual([0, 1, 2].map(liveSegmentPath));
        // The relay asked for all of it with the platform's User-Agent; ffmpeg (`Lavf/…`) asked for none.
        expect(live.requests.map((r) => r.headers['user-agent'])).toEqual(
          live.requests.map(() => USER_AGENT),
        );
      } finally {
        await live.close();
      }
    },
  );
});

const LIVE_ID = 'l1veRad1o00';
const SEGMENT_SECONDS = 2;
/** Paths shaped like YouTube's: the playlist on the manifest host, segments named by sequence number. */
const LIVE_PLAYLIST_PATH = `api/manifest/hls_playlist/id/${LIVE_ID}.1/itag/95/source/yt_live_broadcast/playlist/index.m3u8`;
const liveSegmentPath = (n: number) =>
  `/videoplayback/id/${LIVE_ID}.1/itag/95/source/yt_live_broadcast/sq/${n}/file/seg.ts`;

/**
 * A loopback stand-in for a YouTube live's HLS media playlist and its MPEG-TS segments (AAC), named by
 * absolute addresses as YouTube's are; the stream has ended (`#EXT-X-ENDLIST`), so the track finishes.
 */
async function startLiveHls(segmentCount: number) {
  const segment = renderTone(SEGMENT_SECONDS, 'segment.ts', ['-c:a', 'aac']);
  const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
  let baseUrl = '';
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    requests.push({ url, headers: request.headers });
    if (url === `/${LIVE_PLAYLIST_PATH}`) {
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SEGMENT_SECONDS}`];
      lines.push('#EXT-X-MEDIA-SEQUENCE:0');
      for (let n = 0; n < segmentCount; n++)
        lines.push(`#EXTINF:${SEGMENT_SECONDS}.0,`, `${baseUrl}${liveSegmentPath(n).slice(1)}`);
      lines.push('#EXT-X-ENDLIST', '');
      response.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(lines.join('\n'));
    } else if (url.startsWith('/videoplayback/')) {
      response.writeHead(200, { 'content-type': 'video/mp2t' }).end(segment);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    baseUrl,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
