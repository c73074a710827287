/**
 * The `music_a` catalog's personal pages — recommended playlists, daily songs, the account's playlists
 * and who the login is — logged in, logged out and with a login NetEase no longer accepts, against an
 * msw stand-in for NetEase Cloud Music's weapi (real request and answer shapes).
 */
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { musicUOf, useNeteaseApi } from '../../../tests/helpers/netease-api';
import { NeteaseCatalog } from './netease-catalog';
import { NeteaseClient, RISKY_NETWORK } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import type { NeteaseLogin } from './netease-login-shape';

const api = useNeteaseApi();
const COOKIE = 'MUSIC_U=shared_music_u; __csrf=sharedcsrf';
const ACCOUNT = '/weapi/w/nuser/account/get';
const USER_PLAYLISTS = '/weapi/user/playlist';
const DAILY = '/weapi/v3/discovery/recommend/songs';
const EXPIRED = 'the NetEase Cloud Music login has expired; log in again';
/** What NetEase answers the account check for a cookie that no longer logs in. */
const DEAD_ACCOUNT = { code: 200, account: null, profile: null };

let login: NeteaseLogin | undefined;
const catalog = new NeteaseCatalog(new NeteaseClient(async () => login));
const logIn = () => {
  login = parseNeteaseCookie(COOKIE);
};
afterEach(() => {
  login = undefined;
});

describe('NetEase recommended playlists', () => {
  it('logged out: the playlists NetEase recommends to everyone, up to the limit', async () => {
    expect(await catalog.recommendedPlaylists(2)).toEqual({
      ok: true,
      value: [
        {
          id: '7000000101',
          name: 'Rainy Day Piano',
          coverUrl: 'https://p1.music.126.net/FixtureCoverRainy0000==/109951000000000301.jpg',
          songCount: 80,
          platform: 'music_a',
        },
        {
          id: '7000000102',
          name: 'Road Trip Anthems',
          coverUrl: 'https://p2.music.126.net/FixtureCoverRoadTrip00==/109951000000000302.jpg',
          songCount: 45,
          platform: 'music_a',
        },
      ],
    });
    expect(api.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([
      ['/weapi/personalized/playlist', null],
    ]);
  });

  it("logged in: the account's daily recommended playlists", async () => {
    logIn();
    const result = await catalog.recommendedPlaylists(10);
    expect(api.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([
      ['/weapi/v1/discovery/recommend/resource', musicUOf(COOKIE)],
    ]);
    expect(result.ok && result.value.map((p) => [p.id, p.name, p.songCount, p.coverUrl])).toEqual([
      [
        '7000000201',
        'Harbour Evenings',
        36,
        'https://p1.music.126.net/FixtureCoverHarbourEv==/109951000000000401.jpg',
      ],
      [
        '7000000202',
        'Kite Hill Essentials',
        25,
        'https://p2.music.126.net/FixtureCoverKiteHill00==/109951000000000402.jpg',
      ],
    ]);
  });

  it('an expired login says so', async () => {
    logIn();
    api.answer('/weapi/v1/discovery/recommend/resource', { code: 301, msg: '需要登录' });
    expect(await catalog.recommendedPlaylists(10)).toEqual({ ok: false, error: EXPIRED });
  });
});

describe('NetEase daily songs', () => {
  it("reads the account's daily songs, marking the ones without copyright", async () => {
    logIn();
    const result = await catalog.dailySongs();
    expect(api.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([[DAILY, musicUOf(COOKIE)]]);
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: '1901371661',
          name: 'Sunrise Ferry',
          artist: 'Harbour Bells',
          album: 'Early Tides',
          duration: 203,
          coverUrl: 'https://p1.music.126.net/FixtureCoverTides0000==/109951000000000501.jpg',
          platform: 'music_a',
        },
        {
          id: '1901371662',
          name: 'Locked Door',
          artist: 'Velvet Choir / Kite Hill',
          album: 'Gold Members',
          duration: 188,
          coverUrl: 'https://p2.music.126.net/FixtureCoverGoldMember==/109951000000000002.jpg',
          platform: 'music_a',
          vip: true,
        },
      ],
    });
  });

  it('needs a login: without one NetEase is not even asked', async () => {
    expect(await catalog.dailySongs()).toEqual({
      ok: false,
      error: 'the daily recommendation needs a NetEase Cloud Music login; log in first',
    });
    expect(api.requests).toEqual([]);
  });

  it('an expired login (code 301) and an outage are readable errors', async () => {
    logIn();
    api.answer(DAILY, { code: 301, message: '用户未登录' });
    expect(await catalog.dailySongs()).toEqual({ ok: false, error: EXPIRED });
    api.answer(DAILY, () => new HttpResponse('bad gateway', { status: 502 }));
    expect(await catalog.dailySongs()).toEqual({ ok: false, error: 'NetEase Cloud Music answered HTTP 502' });
  });
});

describe("NetEase account's playlists", () => {
  it('asks who the login is, then lists its created and collected playlists', async () => {
    logIn();
    const result = await catalog.userPlaylists();
    expect(api.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([
      [ACCOUNT, musicUOf(COOKIE)],
      [USER_PLAYLISTS, musicUOf(COOKIE)],
    ]);
    expect(result.ok && result.value.map((p) => [p.id, p.name, p.songCount, p.platform])).toEqual([
      ['7000000301', 'Harbour Listener喜欢的音乐', 212, 'music_a'],
      ['7000000302', 'Late Night Drives', 33, 'music_a'],
      ['7000000001', 'Evening Mix', 4, 'music_a'],
    ]);
  });

  it('without a login it asks for one, with a dead login it says the login expired', async () => {
    expect(await catalog.userPlaylists()).toEqual({
      ok: false,
      error: "listing the account's playlists needs a NetEase Cloud Music login; log in first",
    });
    expect(api.requests).toEqual([]);
    logIn();
    api.answer(ACCOUNT, DEAD_ACCOUNT);
    expect(await catalog.userPlaylists()).toEqual({ ok: false, error: EXPIRED });
    api.answer(ACCOUNT, { code: 301, msg: '需要登录' });
    expect(await catalog.userPlaylists()).toEqual({ ok: false, error: EXPIRED });
    expect(api.requests.map((r) => r.path)).toEqual([ACCOUNT, ACCOUNT]);
  });

  it('a refusal of the playlist list is passed through', async () => {
    logIn();
    api.answer(USER_PLAYLISTS, { code: 405, message: '操作频繁' });
    expect(await catalog.userPlaylists()).toEqual({
      ok: false,
      error: 'NetEase Cloud Music is limiting how often we ask; try again in a minute (code 405: 操作频繁)',
    });
    // -460 is said in plain words, with what the admin can do.
    api.answer(USER_PLAYLISTS, { code: -460, message: 'Cheating' });
    expect(await catalog.userPlaylists()).toEqual({ ok: false, error: RISKY_NETWORK });
  });
});

describe('NetEase account status', () => {
  it('a working login shows its nickname and avatar', async () => {
    logIn();
    expect(await catalog.accountStatus()).toEqual({
      ok: true,
      value: {
        loggedIn: true,
        nickname: 'Harbour Listener',
        avatarUrl: 'https://p1.music.126.net/FixtureAvatarListener==/109951000000000600.jpg',
      },
    });
    expect(api.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([[ACCOUNT, musicUOf(COOKIE)]]);
  });

  it('no login is logged out without asking NetEase', async () => {
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    expect(api.requests).toEqual([]);
  });

  it('an expired cookie is logged out, never an error: null account, null profile, or code 301', async () => {
    logIn();
    api.answer(ACCOUNT, DEAD_ACCOUNT);
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    api.answer(ACCOUNT, { code: 200, account: { id: 90000010, anonimousUser: true }, profile: null });
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    api.answer(ACCOUNT, { code: 301, msg: '需要登录' });
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
  });

  it('NetEase being unreachable is an error, not "logged out"', async () => {
    logIn();
    api.answer(ACCOUNT, () => HttpResponse.error());
    const result = await catalog.accountStatus();
    expect(!result.ok && result.error).toMatch(/^NetEase Cloud Music could not be reached/);
  });
});
