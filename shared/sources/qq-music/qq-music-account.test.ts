/**
 * The `music_b` catalog's personal pages (daily songs, personal FM, the account's playlists, who the
 * login is) against an msw stand-in for QQ Music's `musicu.fcg` (real request shapes).
 */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  failedWith,
  type MusicuRequest,
  RAINY_EVENINGS,
  useQqMusicApi,
} from '../../../tests/helpers/qq-music-api';
import { MusicuClient } from './musicu-client';
import { COLLECTED_LIMIT, QqMusicCatalog } from './qq-music-catalog';
import { parseQqCookie, type QqLogin } from './qq-music-login';

const api = useQqMusicApi();
const COOKIE = 'uin=o0123456789; qqmusic_key=Q_H_L_test_key';
const PERSONAL_COOKIE = 'uin=o0987654321; qm_keyst=Q_H_L_personal_key';
let login: QqLogin | undefined;
const catalog = new QqMusicCatalog(new MusicuClient(async () => login));
const loggedIn = () => {
  login = parseQqCookie(COOKIE);
};
const loggedOut = () => {
  login = undefined;
};
const LOGIN_CHECK = 'music.UserInfo.userInfoServer.GetLoginUserInfo';
const COLLECTED = 'music.musicasset.PlaylistFavRead.CgiGetPlaylistFavInfo';
const methods = () => api.requests.map((r) => r.req_0.method);

describe('QQ Music account status', () => {
  it('checks the login, then names the account from its homepage header', async () => {
    loggedIn();
    const result = await catalog.accountStatus();
    expect(methods()).toEqual(['GetLoginUserInfo', 'GetHomepageHeader']);
    expect(api.requests[1]!.req_0).toEqual({
      module: 'music.UnifiedHomepage.UnifiedHomepageSrv',
      method: 'GetHomepageHeader',
      param: { uin: '123456789', IsQueryTabDetail: 1 },
    });
    // The login travels in comm (musicu asked as the phone app sends no cookie).
    expect(api.requests.every((r) => r.comm.authst === 'Q_H_L_test_key' && r.comm.qq === '123456789')).toBe(
      true,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        loggedIn: true,
        nickname: 'Fixture Listener',
        avatarUrl: 'https://thirdqq.qlogo.cn/g?b=sdk&k=fixture&s=140',
      },
    });
  });

  it('is logged out without a stored login, asking nothing', async () => {
    loggedOut();
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    expect(api.requests).toHaveLength(0);
  });

  it('is logged out, not failed, when the cookie has expired', async () => {
    loggedIn();
    for (const code of [1000, 104400, 104401]) {
      api.answer(LOGIN_CHECK, failedWith(code));
      expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    }
  });

  it('passes other failures on as sentences', async () => {
    loggedIn();
    api.answer(LOGIN_CHECK, () => new HttpResponse('down', { status: 502 }));
    expect(await catalog.accountStatus()).toEqual({ ok: false, error: 'QQ Music answered HTTP 502' });
  });
});

describe('QQ Music daily songs', () => {
  it('finds the daily card in the home feed and loads its playlist', async () => {
    loggedIn();
    const result = await catalog.dailySongs();
    expect(api.requests[0]!.req_0).toEqual({
      module: 'music.recommend.RecommendFeed',
      method: 'get_recommend_feed',
      param: { direction: 0, page: 1, s_num: 0 },
    });
    expect(api.requests[0]!.comm).toMatchObject({ qq: '123456789', authst: 'Q_H_L_test_key' });
    expect(api.requests[1]!.req_0.param).toMatchObject({ disstid: 7256912512 });
    // Browsed like any playlist: every song, the one without audio marked (it cannot play).
    expect(result.ok && result.value.map((s) => [s.name, s.vip ?? false])).toEqual([
      ['Track A', false],
      ['Track B', true],
      ['Track C', false],
      ['Track D', true],
      ['Track E', false],
    ]);
  });

  it('needs a login, and says so', async () => {
    loggedOut();
    expect(await catalog.dailySongs()).toEqual({
      ok: false,
      error: 'the daily recommendation needs a QQ Music login; log in first',
    });
    expect(api.requests).toHaveLength(0);
  });

  it('says so when the feed has no daily card or the login has expired', async () => {
    loggedIn();
    api.answer('music.recommend.RecommendFeed.get_recommend_feed', {
      code: 0,
      req_0: { code: 0, data: { v_shelf: [] } },
    });
    expect(await catalog.dailySongs()).toEqual({
      ok: false,
      error: 'QQ Music offered no daily recommendation for this login',
    });
    api.answer('music.recommend.RecommendFeed.get_recommend_feed', failedWith(1000));
    expect(await catalog.dailySongs()).toEqual({
      ok: false,
      error: 'the QQ Music login has expired; log in again',
    });
  });
});

describe('QQ Music personal FM', () => {
  it('asks the "guess you like" radio with the shared login', async () => {
    loggedIn();
    const result = await catalog.personalFm();
    expect(api.requests[0]!.req_0).toEqual({
      module: 'music.radioProxy.MbTrackRadioSvr',
      method: 'get_radio_track',
      param: { id: 99, num: 5, from: 0, scene: 0, song_ids: [] },
    });
    expect(api.requests[0]!.comm).toMatchObject({ qq: '123456789', authst: 'Q_H_L_test_key' });
    expect(result.ok && result.value.map((s) => s.id)).toEqual(['0039MnYb0qxYhV']);
  });

  it("uses the caller's own linked account when given one", async () => {
    loggedIn();
    await catalog.personalFm(PERSONAL_COOKIE);
    expect(api.requests[0]!.comm).toMatchObject({ qq: '987654321', authst: 'Q_H_L_personal_key' });
  });

  it('needs a login, and says so', async () => {
    loggedOut();
    expect(await catalog.personalFm()).toEqual({
      ok: false,
      error: 'personal FM needs a QQ Music login; log in first',
    });
  });
});

describe("QQ Music account's playlists", () => {
  it('lists the created playlists, then the collected ones asked by the encrypted uin', async () => {
    loggedIn();
    const result = await catalog.userPlaylists();
    expect(methods()).toEqual([
      'GetLoginUserInfo',
      'GetHomepageHeader',
      'GetPlaylistByUin',
      'CgiGetPlaylistFavInfo',
    ]);
    expect(api.requests[2]!.req_0).toEqual({
      module: 'music.musicasset.PlaylistBaseRead',
      method: 'GetPlaylistByUin',
      param: { uin: '123456789' },
    });
    expect(api.requests[3]!.req_0).toEqual({
      module: 'music.musicasset.PlaylistFavRead',
      method: 'CgiGetPlaylistFavInfo',
      param: { uin: 'owFixtureEnc7z**', offset: 0, size: 50 },
    });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: '8800000201',
          name: '我喜欢',
          coverUrl: 'http://y.gtimg.cn/mediastyle/global/img/cover_like.png',
          songCount: 120,
          platform: 'music_b',
        },
        {
          id: '8800000002',
          name: 'Road Trip',
          coverUrl: 'http://qpic.y.qq.com/music_cover/FixtureCoverRoad/300?n=1',
          songCount: 18,
          platform: 'music_b',
        },
        RAINY_EVENINGS,
      ],
    });
  });

  it('reads collected playlists page by page, and at most 300 of them', async () => {
    loggedIn();
    // An account that collected 400 playlists: every page is full and says there is more.
    api.answer(COLLECTED, ({ req_0: { param } }: MusicuRequest) => {
      const offset = Number(param.offset);
      const v_list = Array.from({ length: Number(param.size) }, (_, i) => ({
        tid: 5_000_000_000 + offset + i,
        name: `Collected ${offset + i}`,
        logo: '',
        songnum: 1,
      }));
      return HttpResponse.json({ code: 0, req_0: { code: 0, data: { v_list, hasmore: 1, total: 400 } } });
    });
    const result = await catalog.userPlaylists();
    const pages = api.requests.filter((r) => r.req_0.method === 'CgiGetPlaylistFavInfo');
    expect(pages.map((r) => r.req_0.param.offset)).toEqual([0, 50, 100, 150, 200, 250]);
    const collected = result.ok ? result.value.filter((p) => p.name.startsWith('Collected')) : [];
    expect(collected).toHaveLength(COLLECTED_LIMIT);
    expect(collected.at(-1)!.name).toBe('Collected 299');
  });

  it('needs a working login, and says so', async () => {
    loggedOut();
    expect(await catalog.userPlaylists()).toEqual({
      ok: false,
      error: "reading the account's playlists needs a QQ Music login; log in first",
    });
    loggedIn();
    api.answer(LOGIN_CHECK, failedWith(1000));
    expect(await catalog.userPlaylists()).toEqual({
      ok: false,
      error: 'the QQ Music login has expired; log in again',
    });
  });

  it('passes a failed page on as a sentence', async () => {
    loggedIn();
    api.answer(COLLECTED, failedWith(104005));
    expect(await catalog.userPlaylists()).toEqual({
      ok: false,
      error: 'QQ Music refused CgiGetPlaylistFavInfo (code 104005)',
    });
  });
});
