/**
 * The `video_b` source resolving a song to its best audio format through the fake yt-dlp in
 * tests/fakes/; the last test lets the daemon's decoder (its stream relay, then ffmpeg) fetch the
 * resolved URL from a loopback server, so the URL and headers are shown to reach a real decoder.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decoder } from '../../daemon/audio/decoder';
import { BYTES_PER_SECOND } from '../../daemon/audio/pcm-format';
import { YoutubeSource } from '../../shared/sources/youtube/youtube-source';
import { YtDlp } from '../../shared/sources/youtube/yt-dlp';
import { FAKE_YTDLP, useFakeYtDlp } from '../fakes/fake-yt-dlp';
import { type AudioCdn, startAudioCdn } from '../helpers/audio-cdn';
import { useAudioHosts } from '../helpers/audio-request';
import { FFMPEG } from '../helpers/audio-signals';

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
});
