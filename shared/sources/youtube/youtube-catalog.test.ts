/**
 * The `video_b` catalog (YouTube through yt-dlp) against the fake yt-dlp in tests/fakes/, which answers
 * with yt-dlp's real JSON shapes (tests/fixtures/youtube/).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_YTDLP, useFakeYtDlp } from '../../../tests/fakes/fake-yt-dlp';
import type { Song } from '../../domain/schemas';
import { YoutubeCatalog } from './youtube-catalog';
import { YtDlp } from './yt-dlp';

const fake = useFakeYtDlp();
const catalog = new YoutubeCatalog(new YtDlp(FAKE_YTDLP));
const PLAYLIST_ID = 'PLfixtureR0adTr1pS0ngs_0123456789';
const still = (id: string, name: string, sqp: string) =>
  `https://i.ytimg.com/vi/${id}/${name}.jpg?sqp=${sqp}`;
const WIDEST = '-oaymwEcCNAFEJQDSFXyq4qpAw4IARUAAIhCGAFwAcABBg==&rs=AOn4CLfixture4';
const MIX_WIDEST = (tag: string) => `-oaymwEcCNACELwBSFXyq4qpAw4IARUAAIhCGAFwAcABBg==&rs=AOn4CLmix${tag}2`;
/** The song autoplay asks about: the video whose mix is tests/fixtures/youtube/mix.json. */
const SEED: Song = {
  id: 'pApErB0ats1',
  name: 'Harbor Lights - Paper Boats (Official Audio)',
  artist: 'Harbor Lights',
  album: '',
  duration: 214,
  coverUrl: 'https://i.ytimg.com/vi/pApErB0ats1/maxresdefault.jpg',
  platform: 'video_b',
};

describe('YouTube catalog', () => {
  it('searches with ytsearchN and maps flat entries to Songs', async () => {
    const result = await catalog.search('paper boats', 2);
    expect(fake.runs().map((run) => run.args)).toEqual([
      ['--dump-single-json', '--flat-playlist', '--', 'ytsearch2:paper boats'],
    ]);
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: 'pApErB0ats1',
          name: 'Harbor Lights - Paper Boats (Official Audio)',
          artist: 'Harbor Lights',
          album: '',
          duration: 214,
          coverUrl: still('pApErB0ats1', 'hq720', WIDEST),
          platform: 'video_b',
        },
        {
          id: 'Q7-slowTide',
          name: 'Harbor Lights - Slow Tide (Live at the Pier)',
          artist: 'Harbor Lights',
          album: '',
          duration: 262,
          coverUrl: still('Q7-slowTide', 'hq720', WIDEST),
          platform: 'video_b',
        },
      ],
    });
  });

  it('pages by asking for offset + limit results and keeping the last `limit`', async () => {
    const result = await catalog.search('paper boats', 2, 2);
    expect(fake.runs()[0]!.args.at(-1)).toBe('ytsearch4:paper boats');
    expect(result.ok && result.value.map((song) => [song.id, song.artist])).toEqual([
      ['m00nRiver_2', 'Keys at Midnight'],
      ['LaNtErN-5x9', 'Lantern Street'],
    ]);
  });

  it('gives a live stream (no duration) a duration of 0', async () => {
    const result = await catalog.search('paper boats', 1, 5);
    expect(result.ok && result.value).toEqual([expect.objectContaining({ id: 'NiGhTbUs_77', duration: 0 })]);
  });

  it('answers an empty query or a page past the search depth without running yt-dlp', async () => {
    expect(await catalog.search('   ', 10)).toEqual({ ok: true, value: [] });
    expect(await catalog.search('paper boats', 10, 100)).toEqual({ ok: true, value: [] });
    expect(fake.runs()).toEqual([]);
  });

  it('keeps a query that looks like an option inside the ytsearch argument', async () => {
    const result = await catalog.search('--exec=rm -rf ~', 1);
    expect(fake.runs()[0]!.args.slice(-2)).toEqual(['--', 'ytsearch1:--exec=rm -rf ~']);
    expect(result.ok && result.value).toHaveLength(1);
  });

  it('finds a song by its id with one full answer', async () => {
    const result = await catalog.song('pApErB0ats1');
    expect(fake.runs().map((run) => run.args)).toEqual([
      [...['--dump-single-json', '--no-playlist', '--'], 'https://www.youtube.com/watch?v=pApErB0ats1'],
    ]);
    expect(result).toEqual({
      ok: true,
      value: SEED,
    });
  });

  it.each([
    'https://youtu.be/r0adTr1p_02?si=fixtureShare',
    'https://www.youtube.com/watch?v=r0adTr1p_02&t=42s',
    `https://music.youtube.com/watch?v=r0adTr1p_02&list=${PLAYLIST_ID}`,
    'https://m.youtube.com/shorts/r0adTr1p_02',
    ' https://www.youtube.com/embed/r0adTr1p_02 ',
  ])('finds a song by its link %s, normalised to the watch URL', async (link) => {
    const result = await catalog.song(link);
    expect(fake.runs()[0]!.args.at(-1)).toBe('https://www.youtube.com/watch?v=r0adTr1p_02');
    expect(result).toMatchObject({ ok: true, value: { id: 'r0adTr1p_02', name: 'Mile Markers' } });
  });

  it('answers undefined for a video yt-dlp says is unavailable', async () => {
    expect(await catalog.song('zzzzzzzzzzz')).toEqual({ ok: true, value: undefined });
    expect(fake.runs()).toHaveLength(1);
  });

  it("lists a playlist's videos in order, dropping private and deleted ones", async () => {
    const result = await catalog.playlist(PLAYLIST_ID);
    expect(fake.runs().map((run) => run.args)).toEqual([
      [
        ...['--flat-playlist', '--dump-single-json', '--playlist-end', '1000', '--'],
        `https://www.youtube.com/playlist?list=${PLAYLIST_ID}`,
      ],
    ]);
    expect(result.ok && result.value).toEqual({
      songs: [
        expect.objectContaining({
          id: 'r0adTr1p_01',
          name: 'Open Road',
          artist: 'Harbor Lights',
          duration: 198,
        }),
        expect.objectContaining({ id: 'r0adTr1p_02', name: 'Mile Markers', artist: 'Lantern Street' }),
        expect.objectContaining({ id: 'r0adTr1p_04', name: 'Gas Station Coffee', platform: 'video_b' }),
      ],
      totalCount: 5,
    });
  });

  it('takes a playlist link, or the list of a watch link', async () => {
    const links = [
      `https://www.youtube.com/playlist?list=${PLAYLIST_ID}`,
      `https://www.youtube.com/watch?v=r0adTr1p_01&list=${PLAYLIST_ID}&index=1`,
    ];
    for (const link of links)
      expect(await catalog.playlist(link)).toMatchObject({ ok: true, value: { totalCount: 5 } });
    expect(fake.runs().map((run) => run.args.at(-1))).toEqual([
      `https://www.youtube.com/playlist?list=${PLAYLIST_ID}`,
      `https://www.youtube.com/playlist?list=${PLAYLIST_ID}`,
    ]);
  });

  it('answers undefined for a playlist YouTube does not have', async () => {
    expect(await catalog.playlist('PLnoSuchPlaylist0000')).toEqual({ ok: true, value: undefined });
  });

  it.each([
    '--exec=rm',
    '--exec=rm12',
    '-o/tmp/x.webm',
    'https://evil.example/watch?v=pApErB0ats1',
    'file:///etc/passwd',
    'pApErB0ats1 --exec rm',
    '',
  ])('refuses %j as an id before running yt-dlp', async (id) => {
    expect(await catalog.song(id)).toEqual({ ok: true, value: undefined });
    expect(await catalog.playlist(id)).toEqual({ ok: true, value: undefined });
    expect(fake.runs()).toEqual([]);
  });

  it("gives a video's mix as the songs like it: listed flat, the seed left out, at most `limit`", async () => {
    const result = await catalog.relatedSongs(SEED, 3);
    expect(fake.runs().map((run) => run.args)).toEqual([
      [
        ...['--flat-playlist', '--dump-single-json', '--playlist-end', '4', '--'],
        'https://www.youtube.com/watch?v=pApErB0ats1&list=RDpApErB0ats1',
      ],
    ]);
    expect(result).toEqual({
      ok: true,
      value: [
        expect.objectContaining({ id: 'Q7-slowTide', name: 'Harbor Lights - Slow Tide (Live at the Pier)' }),
        {
          id: 'mIxDriftw00',
          name: 'Driftwood Choir - Low Water',
          artist: 'Driftwood Choir',
          album: '',
          duration: 231,
          coverUrl: still('mIxDriftw00', 'hqdefault', MIX_WIDEST('c')),
          platform: 'video_b',
        },
        expect.objectContaining({ id: 'mIxSaltR0ad', artist: 'Lantern Street' }),
      ],
    });
  });

  it('gives every video of a mix shorter than the limit', async () => {
    const result = await catalog.relatedSongs(SEED, 20);
    expect(fake.runs()[0]!.args.slice(2, 4)).toEqual(['--playlist-end', '21']);
    expect(result.ok && result.value.map((song) => song.id)).toEqual([
      'Q7-slowTide',
      'mIxDriftw00',
      'mIxSaltR0ad',
      'mIxT1deP00l',
      'mIxF0gh0rn5',
    ]);
  });

  it('passes a mix yt-dlp cannot list on as an error; a foreign id runs nothing', async () => {
    expect(await catalog.relatedSongs({ ...SEED, id: 'r0adTr1p_01' }, 5)).toEqual({
      ok: false,
      error: 'YouTube has no such playlist (it was removed, made private or never existed)',
    });
    fake.set('FAKE_YTDLP_MODE', 'garbage');
    expect(await catalog.relatedSongs(SEED, 5)).toEqual({
      ok: false,
      error: 'yt-dlp answered with something that is not JSON',
    });
    const runs = fake.runs().length;
    expect(await catalog.relatedSongs({ ...SEED, id: '--exec=rm' }, 5)).toEqual({ ok: true, value: [] });
    expect(fake.runs()).toHaveLength(runs);
  });

  it('reports whether yt-dlp runs as the login status', async () => {
    expect(await catalog.accountStatus()).toEqual({
      ok: true,
      value: {
        loggedIn: true,
        nickname: 'yt-dlp 2025.01.26',
        phrase: expect.objectContaining({ code: 'ytDlpVersion' }),
      },
    });
  });

  it('says yt-dlp is not installed when it is missing', async () => {
    const missing = new YoutubeCatalog(new YtDlp(join(FAKE_YTDLP, '..', 'no-such-yt-dlp')));
    expect(await missing.search('paper boats', 5)).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^yt-dlp is not installed \(nothing at .*no-such-yt-dlp; fix YTDLP_PATH\)$/,
      ),
    });
    expect(await missing.accountStatus()).toMatchObject({
      ok: true,
      value: { loggedIn: false, nickname: expect.stringMatching(/^yt-dlp is not installed/) },
    });
  });

  it('reports garbage from yt-dlp as an error, not a crash', async () => {
    fake.set('FAKE_YTDLP_MODE', 'garbage');
    expect(await catalog.search('paper boats', 5)).toEqual({
      ok: false,
      error: 'yt-dlp answered with something that is not JSON',
    });
    expect(await catalog.song('pApErB0ats1')).toEqual({
      ok: false,
      error: 'yt-dlp answered with something that is not JSON',
    });
  });
});
