/** The `music_b` catalog against an msw stand-in for QQ Music's `musicu.fcg` (real request shapes). */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  FIXTURE_QIMEI,
  FIXTURE_SESSION,
  failedWith,
  useQqMusicApi,
} from '../../../tests/helpers/qq-music-api';
import { MusicuClient, RISK_CONTROL } from './musicu-client';
import { QqMusicCatalog } from './qq-music-catalog';
import { parseQqCookie, type QqLogin } from './qq-music-login';

const api = useQqMusicApi();
const COOKIE = 'pgv_pvid=1; uin=o0123456789; qqmusic_key=Q_H_L_test_key; qm_keyst=Q_H_L_test_key';
let login: QqLogin | undefined;
const catalog = new QqMusicCatalog(new MusicuClient(async () => login));
const anonymously = () => {
  login = undefined;
};

describe('QQ Music catalog', () => {
  it("searches songs with the phone app's search and maps them to Songs", async () => {
    anonymously();
    const result = await catalog.search('sunny', 20);
    expect(api.requests[0]!.req_0).toEqual({
      module: 'music.search.SearchCgiService',
      method: 'DoSearchForQQMusicMobile',
      param: {
        searchid: expect.stringMatching(/^\d+$/),
        query: 'sunny',
        search_type: 0,
        num_per_page: 20,
        page_num: 1,
        highlight: 1,
        grp: 1,
        selectors: {},
        vec_selectors: [],
      },
    });
    // Asked as the phone app, in the session QQ Music handed the device, with no account.
    expect(api.requests[0]!.comm).toMatchObject({
      ct: 11,
      cv: 14090008,
      uid: FIXTURE_SESSION.uid,
      sid: FIXTURE_SESSION.sid,
    });
    expect(api.requests[0]!.comm).not.toHaveProperty('authst');
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

  it('asks QQ Music for a session once and keeps using it', async () => {
    await catalog.search('sunny', 5);
    await catalog.song('0039MnYb0qxYhV');
    expect(api.sessionRequests).toHaveLength(1);
    expect(api.sessionRequests[0]!.req_0).toEqual({
      module: 'music.getSession.session',
      method: 'GetSession',
      param: { uid: '', vkey: 0, caller: 0 },
    });
    // Asked before any session: no uid or sid yet, the same device as every later request, already
    // named by Tencent's QIMEI service (the stand-in refuses a comm without its two ids).
    expect(api.sessionRequests[0]!.comm).not.toHaveProperty('sid');
    expect(api.sessionRequests[0]!.comm).toMatchObject({
      QIMEI: FIXTURE_QIMEI.q16,
      QIMEI36: FIXTURE_QIMEI.q36,
    });
    expect(api.requests.every((r) => r.comm.OpenUDID === api.sessionRequests[0]!.comm.OpenUDID)).toBe(true);
  });

  it('pages by page number', async () => {
    await catalog.search('sunny', 10, 20);
    expect(api.requests[0]!.req_0.param).toMatchObject({ num_per_page: 10, page_num: 3 });
  });

  it('sends the stored login in comm: the account, its key and the kind of login', async () => {
    login = parseQqCookie(COOKIE);
    await catalog.search('sunny', 5);
    anonymously();
    expect(api.requests[0]!.comm).toMatchObject({
      qq: '123456789',
      authst: 'Q_H_L_test_key',
      tmeLoginType: 2,
    });
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
      module: 'music.srfDissInfo.DissInfo',
      method: 'CgiGetDiss',
      param: { disstid: 7256912512, dirid: 0, song_begin: 0, song_num: 1000, onlysonglist: 0 },
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
    api.answer('music.srfDissInfo.DissInfo.CgiGetDiss', {
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
      param: { albumMid: '000MkMni19ClKG', begin: 0, num: 1000 },
    });
    expect(result.ok && result.value).toEqual({
      songs: [expect.objectContaining({ name: 'Sunny Day' }), expect.objectContaining({ name: 'Rainy Day' })],
    });
  });

  it('turns error codes, bad shapes, HTTP errors and network failures into sentences', async () => {
    const key = 'music.search.SearchCgiService.DoSearchForQQMusicMobile';
    api.answer(key, failedWith(104005));
    expect(await catalog.search('x', 1)).toEqual({
      ok: false,
      error: 'QQ Music refused DoSearchForQQMusicMobile (code 104005)',
    });
    // Its risk control (a request it wants signed, or too many) in plain words.
    for (const code of [2000, 2001]) {
      api.answer(key, failedWith(code));
      expect(await catalog.search('x', 1)).toEqual({ ok: false, error: RISK_CONTROL });
    }
    expect(RISK_CONTROL).toMatch(/risk control.*wait a while.*log in/);
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
    api.answer(key, { code: 0, req_0: { code: 0, data: { body: { item_song: 'nope' } } } });
    expect(await catalog.search('x', 1)).toEqual({
      ok: false,
      error: 'QQ Music answered DoSearchForQQMusicMobile in an unexpected shape',
    });
    api.answer(key, () => new HttpResponse('busy', { status: 503 }));
    expect(await catalog.search('x', 1)).toEqual({ ok: false, error: 'QQ Music answered HTTP 503' });
    api.answer(key, () => HttpResponse.error());
    const down = await catalog.search('x', 1);
    expect(down.ok === false && down.error).toMatch(/^QQ Music could not be reached/);
  });
});

describe('QQ Music similar songs', () => {
  const SIMILAR = 'music.recommend.TrackRelationServer.GetSimilarSongs';
  const TRACK_INFO = 'music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo';
  const SUNNY_DAY = {
    id: '0039MnYb0qxYhV',
    name: 'Sunny Day',
    artist: 'Singer One',
    album: 'Leaf Album',
    duration: 269,
    coverUrl: 'https://y.gtimg.cn/music/photo_new/T002R300x300M000000MkMni19ClKG.jpg',
    platform: 'music_b' as const,
  };

  it("looks up the seed's numeric id, then gives QQ Music's similar songs without the seed", async () => {
    anonymously();
    const result = await catalog.relatedSongs(SUNNY_DAY, 10);
    expect(api.requests.map((r) => r.req_0)).toEqual([
      expect.objectContaining({
        method: 'CgiGetTrackInfo',
        param: expect.objectContaining({ mids: [SUNNY_DAY.id] }),
      }),
      { module: 'music.recommend.TrackRelationServer', method: 'GetSimilarSongs', param: { songid: 97773 } },
    ]);
    expect(result).toEqual({
      ok: true,
      value: [
        { ...SUNNY_DAY, id: '002Breeze00001', name: 'Morning Breeze', duration: 241 },
        {
          id: '002Member00002',
          name: 'Golden Hour',
          artist: 'Singer Two / Guest Three',
          album: 'Member Hits',
          duration: 215,
          coverUrl: 'https://y.gtimg.cn/music/photo_new/T002R300x300M000002VipAlbum0001.jpg',
          platform: 'music_b',
          vip: true,
        },
        expect.objectContaining({ id: '002Puddle00003', name: 'Puddle Steps' }),
      ],
    });
    const two = await catalog.relatedSongs(SUNNY_DAY, 2);
    expect(two.ok && two.value.map((s) => s.name)).toEqual(['Morning Breeze', 'Golden Hour']);
  });

  it('a seed QQ Music does not know has none, and a refusal at either step is an error', async () => {
    api.answer(TRACK_INFO, { code: 0, req_0: { code: 0, data: { tracks: [] } } });
    expect(await catalog.relatedSongs(SUNNY_DAY, 5)).toEqual({ ok: true, value: [] });
    expect(api.requests.map((r) => r.req_0.method)).toEqual(['CgiGetTrackInfo']);
    api.answer(TRACK_INFO, failedWith(104005));
    expect(await catalog.relatedSongs(SUNNY_DAY, 5)).toEqual({
      ok: false,
      error: 'QQ Music refused CgiGetTrackInfo (code 104005)',
    });
  });

  it("a refused similar-songs request is QQ Music's error", async () => {
    api.answer(SIMILAR, failedWith(104005));
    expect(await catalog.relatedSongs(SUNNY_DAY, 5)).toEqual({
      ok: false,
      error: 'QQ Music refused GetSimilarSongs (code 104005)',
    });
    api.answer(SIMILAR, failedWith(2000));
    expect(await catalog.relatedSongs(SUNNY_DAY, 5)).toEqual({ ok: false, error: RISK_CONTROL });
    api.answer(SIMILAR, () => new HttpResponse('busy', { status: 503 }));
    expect(await catalog.relatedSongs(SUNNY_DAY, 5)).toEqual({
      ok: false,
      error: 'QQ Music answered HTTP 503',
    });
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
