/** The `music_b` catalog against an msw stand-in for QQ Music's `musicu.fcg` (real request shapes). */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MusicuClient } from '../../shared/sources/qq-music/musicu-client';
import { QqMusicCatalog } from '../../shared/sources/qq-music/qq-music-catalog';
import { parseQqCookie, type QqLogin } from '../../shared/sources/qq-music/qq-music-login';
import { failedWith, useQqMusicApi } from '../helpers/qq-music-api';

const api = useQqMusicApi();
const COOKIE = 'pgv_pvid=1; uin=o0123456789; qqmusic_key=Q_H_L_test_key; qm_keyst=Q_H_L_test_key';
let login: QqLogin | undefined;
const catalog = new QqMusicCatalog(new MusicuClient(async () => login));
const anonymously = () => {
  login = undefined;
};

describe('QQ Music catalog', () => {
  it('searches songs with the desktop search module and maps them to Songs', async () => {
    anonymously();
    const result = await catalog.search('sunny', 20);
    expect(api.requests[0]!.req_0).toEqual({
      module: 'music.search.SearchCgiService',
      method: 'DoSearchForQQMusicDesktop',
      param: { query: 'sunny', search_type: 0, num_per_page: 20, page_num: 1 },
    });
    expect(api.requests[0]!.comm.uin).toBe('0');
    expect(api.requests[0]!.cookie).toBeNull();
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: '0039MnYb0qxYhV',
          name: 'Sunny Day',
          artist: 'Singer One',
          album: 'Leaf Album',
          duration: 269,
          coverUrl: 'https://y.gtimg.cn/music/photo_new/T002R300x300M000000MkMni19ClKG.jpg',
          platform: 'music_b',
        },
        {
          id: '001VipTrack001',
          name: 'Paid Tune',
          artist: 'Singer Two / Guest Three',
          album: 'Member Hits',
          duration: 201,
          coverUrl: 'https://y.gtimg.cn/music/photo_new/T002R300x300M000002VipAlbum0001.jpg',
          platform: 'music_b',
          vip: true,
        },
      ],
    });
  });

  it('pages by page number', async () => {
    await catalog.search('sunny', 10, 20);
    expect(api.requests[0]!.req_0.param).toMatchObject({ num_per_page: 10, page_num: 3 });
  });

  it('sends the stored login in comm and as the cookie', async () => {
    login = parseQqCookie(COOKIE);
    await catalog.search('sunny', 5);
    anonymously();
    expect(api.requests[0]!.comm).toMatchObject({ uin: '123456789', authst: 'Q_H_L_test_key' });
    expect(api.requests[0]!.cookie).toBe(COOKIE);
  });

  it('finds a song by its songmid, and answers undefined for an unknown one', async () => {
    const found = await catalog.song('0039MnYb0qxYhV');
    expect(api.requests[0]!.req_0).toMatchObject({
      module: 'music.trackInfo.UniformRuleCtrl',
      method: 'CgiGetTrackInfo',
      param: { mids: ['0039MnYb0qxYhV'], types: [0] },
    });
    expect(found.ok && found.value?.name).toBe('Sunny Day');
    expect(await catalog.song('000Unknown0000')).toEqual({ ok: true, value: undefined });
  });

  it('lists every song of a playlist, and apart from them the ones that play', async () => {
    const result = await catalog.playlist('7256912512');
    expect(api.requests[0]!.req_0).toMatchObject({
      module: 'music.srfDissInfo.aiDissInfo',
      method: 'uniform_get_Dissinfo',
      param: { disstid: 7256912512, song_begin: 0, song_num: 1000 },
    });
    expect(result.ok && result.value?.songs.map((s) => s.name)).toEqual([
      'Track A',
      'Track B',
      'Track C',
      'Track D',
      'Track E',
    ]);
    // Track B needs VIP (anonymous here) and Track D has no audio file.
    expect(result.ok && result.value?.playable?.map((s) => s.name)).toEqual([
      'Track A',
      'Track C',
      'Track E',
    ]);
  });

  it('plays VIP songs of a playlist when a login is stored', async () => {
    login = parseQqCookie(COOKIE);
    const result = await catalog.playlist('7256912512');
    anonymously();
    expect(result.ok && result.value?.playable).toHaveLength(4);
  });

  it('answers undefined for an unknown playlist or a non-numeric id', async () => {
    api.answer('music.srfDissInfo.aiDissInfo.uniform_get_Dissinfo', {
      code: 0,
      req_0: { code: 0, data: { code: 0, dirinfo: { id: 0, title: '' }, songlist: [] } },
    });
    expect(await catalog.playlist('1')).toEqual({ ok: true, value: undefined });
    expect(await catalog.playlist('not-a-playlist')).toEqual({ ok: true, value: undefined });
  });

  it('loads an album by its albummid', async () => {
    const result = await catalog.album('000MkMni19ClKG');
    expect(api.requests[0]!.req_0).toMatchObject({
      module: 'music.musichallAlbum.AlbumSongList',
      method: 'GetAlbumSongList',
      param: { albumMid: '000MkMni19ClKG', begin: 0 },
    });
    expect(result.ok && result.value).toEqual({
      songs: [expect.objectContaining({ name: 'Sunny Day' }), expect.objectContaining({ name: 'Rainy Day' })],
    });
  });

  it('turns error codes, bad shapes, HTTP errors and network failures into sentences', async () => {
    const key = 'music.search.SearchCgiService.DoSearchForQQMusicDesktop';
    api.answer(key, failedWith(2001));
    expect(await catalog.search('x', 1)).toEqual({
      ok: false,
      error: 'QQ Music refused DoSearchForQQMusicDesktop (code 2001)',
    });
    api.answer(key, failedWith(1000));
    expect(await catalog.search('x', 1)).toEqual({
      ok: false,
      error: 'the QQ Music login has expired; log in again',
    });
    api.answer(key, { code: -500001 });
    expect(await catalog.search('x', 1)).toEqual({
      ok: false,
      error: 'QQ Music refused the request (code -500001)',
    });
    api.answer(key, { code: 0, req_0: { code: 0, data: { body: { song: 'nope' } } } });
    expect(await catalog.search('x', 1)).toEqual({
      ok: false,
      error: 'QQ Music answered DoSearchForQQMusicDesktop in an unexpected shape',
    });
    api.answer(key, () => new HttpResponse('busy', { status: 503 }));
    expect(await catalog.search('x', 1)).toEqual({ ok: false, error: 'QQ Music answered HTTP 503' });
    api.answer(key, () => HttpResponse.error());
    const down = await catalog.search('x', 1);
    expect(down.ok === false && down.error).toMatch(/^QQ Music could not be reached/);
  });
});

describe('QQ Music cookie', () => {
  it('reads the account number and music key, and rejects cookies without them', () => {
    expect(parseQqCookie('uin=o0012345; qm_keyst=abc')).toEqual({
      uin: '12345',
      musicKey: 'abc',
      cookie: 'uin=o0012345; qm_keyst=abc',
    });
    expect(parseQqCookie('uin=12345')).toBeUndefined();
    expect(parseQqCookie('qqmusic_key=abc')).toBeUndefined();
  });
});
