/**
 * The `music_a` catalog's browsing side — album and playlist search, a playlist's details and lyrics —
 * against an msw stand-in for NetEase Cloud Music's weapi (real request and answer shapes).
 */
import { describe, expect, it } from 'vitest';
import { neteaseFixture, useNeteaseApi } from '../../../tests/helpers/netease-api';
import { mergeLyrics } from '../lrc';
import { NeteaseCatalog } from './netease-catalog';
import { NeteaseClient } from './netease-client';

const api = useNeteaseApi();
const catalog = new NeteaseCatalog(new NeteaseClient(async () => undefined));
const SEARCH = '/eapi/cloudsearch/pc';
const LYRIC = '/eapi/song/lyric';

describe('NetEase album and playlist search', () => {
  it('maps cloudsearch albums to Albums: every artist, the cover and the song count', async () => {
    api.answer(SEARCH, neteaseFixture('search-albums'));
    expect(await catalog.searchAlbums('harbour', 10)).toEqual({
      ok: true,
      value: [
        {
          id: '150000001',
          name: 'Harbour Lights',
          artist: 'River Lane / Kite Hill',
          coverUrl: 'https://p1.music.126.net/FixtureCoverHarbour0000==/109951000000000001.jpg',
          songCount: 12,
          platform: 'music_a',
        },
        {
          id: '150000002',
          name: 'Paper Boats (Single)',
          artist: 'Paper Cranes',
          coverUrl: 'https://p3.music.126.net/FixtureCoverSingle0000==/109951000000000003.jpg',
          songCount: 1,
          platform: 'music_a',
        },
      ],
    });
    expect(api.requests.map((r) => r.path)).toEqual([SEARCH]);
  });

  it('maps cloudsearch playlists to Playlists and keeps to the limit', async () => {
    api.answer(SEARCH, neteaseFixture('search-playlists'));
    expect(await catalog.searchPlaylists('evening', 1)).toEqual({
      ok: true,
      value: [
        {
          id: '7000000001',
          name: 'Evening Mix',
          coverUrl: 'https://p1.music.126.net/FixtureCoverPlaylist000==/109951000000000009.jpg',
          songCount: 4,
          platform: 'music_a',
        },
      ],
    });
  });

  it('answers a search with no hits (no `albums`/`playlists` key at all) with an empty list', async () => {
    api.answer(SEARCH, { result: { albumCount: 0 }, code: 200 });
    expect(await catalog.searchAlbums('nothing', 5)).toEqual({ ok: true, value: [] });
    api.answer(SEARCH, { result: { playlistCount: 0 }, code: 200 });
    expect(await catalog.searchPlaylists('nothing', 5)).toEqual({ ok: true, value: [] });
  });

  it('passes a refusal through as a readable sentence', async () => {
    api.answer(SEARCH, { code: 405, message: '操作频繁，请稍候再试' });
    expect(await catalog.searchPlaylists('x', 5)).toEqual({
      ok: false,
      error:
        'NetEase Cloud Music is limiting how often we ask; try again in a minute (code 405: 操作频繁，请稍候再试)',
    });
  });
});

describe('NetEase playlist details', () => {
  it('reads name, description, cover and the whole track count', async () => {
    expect(await catalog.playlistDetail('7000000001')).toEqual({
      ok: true,
      value: {
        id: '7000000001',
        name: 'Evening Mix',
        description: 'A made-up playlist for tests.',
        coverUrl: 'https://p1.music.126.net/FixtureCoverPlaylist000==/109951000000000009.jpg',
        songCount: 4,
      },
    });
    // Details never fetch the songs missing from `tracks`.
    expect(api.requests.map((r) => r.path)).toEqual(['/eapi/v6/playlist/detail']);
  });

  it('gives an empty description for `null`, and undefined for an unknown or non-numeric id', async () => {
    api.answer('/eapi/v6/playlist/detail', {
      code: 200,
      playlist: {
        id: 7000000002,
        name: 'Bare',
        description: null,
        coverImgUrl: 'https://p1/c.jpg',
        trackCount: 0,
      },
      privileges: [],
    });
    expect(await catalog.playlistDetail('7000000002')).toMatchObject({
      ok: true,
      value: { name: 'Bare', description: '', songCount: 0 },
    });
    api.answer('/eapi/v6/playlist/detail', { code: 404, message: '歌单不存在' });
    expect(await catalog.playlistDetail('1')).toEqual({ ok: true, value: undefined });
    expect(await catalog.playlistDetail('abc')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(2);
  });

  it('turns a refusal into a readable error', async () => {
    api.answer('/eapi/v6/playlist/detail', { code: 401, message: '无权限访问' });
    expect(await catalog.playlistDetail('7000000003')).toEqual({
      ok: false,
      error: 'NetEase Cloud Music refused /eapi/v6/playlist/detail (code 401: 无权限访问)',
    });
  });
});

describe('NetEase lyrics', () => {
  it('puts each translation right after its original line, with the same timestamp', async () => {
    expect(await catalog.lyrics('1901371647')).toEqual({
      ok: true,
      value: [
        '[00:00.000] 作词 : River Lane',
        '[00:01.000] 作曲 : Kite Hill',
        '[00:12.500]纸船顺着河流',
        '[00:12.500]Paper boats float down the river',
        '[00:17.25]漂向远方的港口',
        '[00:17.25]Towards a harbour far away',
        '[00:21.800]',
        '[00:22.000]灯塔还亮着',
      ].join('\n'),
    });
    expect(api.requests.map((r) => r.path)).toEqual([LYRIC]);
  });

  it('answers the original alone when there is no translation', async () => {
    api.answer(LYRIC, { lrc: { version: 2, lyric: '[00:01.00]Only line\n' }, code: 200 });
    expect(await catalog.lyrics('1901371647')).toEqual({ ok: true, value: '[00:01.00]Only line' });
    api.answer(LYRIC, {
      lrc: { version: 2, lyric: '[00:01.00]Only line' },
      tlyric: { version: 0, lyric: '' },
      code: 200,
    });
    expect(await catalog.lyrics('1901371647')).toEqual({ ok: true, value: '[00:01.00]Only line' });
  });

  it('is undefined for an instrumental, an uncollected or an empty lyric, and for a non-numeric id', async () => {
    api.answer(LYRIC, { sgc: false, sfy: false, qfy: false, nolyric: true, code: 200 });
    expect(await catalog.lyrics('1')).toEqual({ ok: true, value: undefined });
    api.answer(LYRIC, { sgc: true, sfy: false, qfy: false, uncollected: true, code: 200 });
    expect(await catalog.lyrics('2')).toEqual({ ok: true, value: undefined });
    api.answer(LYRIC, { lrc: { version: 1, lyric: '' }, tlyric: { version: 0, lyric: '' }, code: 200 });
    expect(await catalog.lyrics('3')).toEqual({ ok: true, value: undefined });
    expect(await catalog.lyrics('x')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(3);
  });

  it('says so when the lyric answer has an unexpected shape', async () => {
    api.answer(LYRIC, { lrc: { lyric: 42 }, code: 200 });
    expect(await catalog.lyrics('1')).toEqual({
      ok: false,
      error: `NetEase Cloud Music answered ${LYRIC} in an unexpected shape`,
    });
  });

  it('matches times written with different precision and lines with several timestamps', () => {
    const original = '[ti:Song]\n[00:05.10][01:05.10]Chorus\nplain text\n[00:09.00]Verse';
    const translation = '[00:05.100]副歌\n[01:05.1]副歌\n[00:09.000]主歌';
    expect(mergeLyrics(original, translation)).toBe(
      [
        '[ti:Song]',
        '[00:05.10][01:05.10]Chorus',
        '[00:05.10]副歌',
        '[01:05.10]副歌',
        'plain text',
        '[00:09.00]Verse',
        '[00:09.00]主歌',
      ].join('\n'),
    );
    expect(mergeLyrics('  \n', '[00:01.00]x')).toBeUndefined();
  });
});
