/**
 * What the `music_a` adapter sends inside its payloads, in each call's form: the web player's weapi
 * (its random secret is pinned here, so the msw stand-in can undo both AES layers), the desktop client's
 * eapi (with its device `header`) and the app's xeapi. The other NetEase test files check what is read
 * from the answers.
 */
import { describe, expect, it, vi } from 'vitest';
import { useNeteaseApi } from '../../../tests/helpers/netease-api';
import { FIXTURE_MUSIC_A } from '../../../tests/helpers/netease-protocol';
import { cookieValues } from '../http/cookies';
import { NeteaseCatalog } from './netease-catalog';
import { NeteaseClient } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import type { NeteaseLogin } from './netease-login-shape';
import { NeteaseSource } from './netease-source';

const SECRET = vi.hoisted(() => 'PinnedFixture016');
vi.mock(import('./weapi'), async (importOriginal) =>
  (await import('../../../tests/helpers/weapi-pin')).weapiPinnedTo(SECRET, await importOriginal()),
);

const api = useNeteaseApi({ weapiSecret: SECRET });
let login: NeteaseLogin | undefined;
const client = new NeteaseClient(async () => login);
const catalog = new NeteaseCatalog(client);
const SONG = { id: '1901371647', platform: 'music_a' } as const;

const sent = () => api.requests.map((r) => [r.path, r.payload]);
/** What the web form adds to every payload, and the desktop form (beside its `header`). */
const WEB = { e_r: false, csrf_token: '' };
const DESKTOP = { e_r: false };

describe('NetEase payloads', () => {
  it('searches albums with cloudsearch type 10 and playlists with type 1000', async () => {
    await catalog.searchAlbums('harbour', 10, 20);
    await catalog.searchPlaylists('evening', 5);
    expect(sent()).toEqual([
      ['/eapi/cloudsearch/pc', { s: 'harbour', type: 10, limit: 10, offset: 20, total: true, ...DESKTOP }],
      ['/eapi/cloudsearch/pc', { s: 'evening', type: 1000, limit: 5, offset: 0, total: true, ...DESKTOP }],
    ]);
  });

  it('asks for every lyric version (tv, lv, rv, kv -1) of the song', async () => {
    await catalog.lyrics('1901371647');
    expect(sent()).toEqual([
      ['/eapi/song/lyric', { id: 1901371647, tv: -1, lv: -1, rv: -1, kv: -1, _nmclfl: 1, ...DESKTOP }],
    ]);
  });

  it('asks for playlist details by numeric id', async () => {
    await catalog.playlistDetail('7000000001');
    expect(sent()).toEqual([['/eapi/v6/playlist/detail', { id: 7000000001, n: 100_000, s: 8, ...DESKTOP }]]);
  });

  it('anonymous recommendations carry the limit; personal ones the login csrf token', async () => {
    await catalog.recommendedPlaylists(6);
    login = parseNeteaseCookie('MUSIC_U=u; __csrf=tok123');
    await catalog.recommendedPlaylists(6);
    await catalog.dailySongs();
    login = undefined;
    expect(sent()).toEqual([
      ['/weapi/personalized/playlist', { limit: 6, total: true, n: 1000, ...WEB }],
      ['/weapi/v1/discovery/recommend/resource', { e_r: false, csrf_token: 'tok123' }],
      ['/weapi/v3/discovery/recommend/songs', { e_r: false, csrf_token: 'tok123' }],
    ]);
  });

  it('asks for songs like the seed by its numeric id, one more than the limit', async () => {
    await catalog.relatedSongs(
      { ...SONG, name: 'Paper Boats', artist: 'River Lane', album: '', duration: 246, coverUrl: '' },
      3,
    );
    expect(sent()).toEqual([
      ['/weapi/v1/discovery/simiSong', { songid: 1901371647, limit: 4, offset: 0, ...WEB }],
    ]);
  });

  it("lists the account's playlists by the uid the account check answers, up to 1000", async () => {
    login = parseNeteaseCookie('MUSIC_U=u; __csrf=tok123');
    await catalog.userPlaylists();
    login = undefined;
    expect(sent()).toEqual([
      ['/weapi/w/nuser/account/get', { e_r: false, csrf_token: 'tok123' }],
      [
        '/weapi/user/playlist',
        { uid: 90000010, limit: 1000, offset: 0, includeVideo: true, e_r: false, csrf_token: 'tok123' },
      ],
    ]);
  });

  it("resolves at the request's quality, else at the source's default level", async () => {
    const source = new NeteaseSource(client, 'higher');
    await source.resolveStream({ ...SONG, quality: 'lossless' });
    await source.resolveStream({ ...SONG, quality: 'master' });
    await source.resolveStream(SONG);
    await source.resolveStream({ ...SONG, quality: 'direct' });
    await new NeteaseSource(client).resolveStream(SONG);
    const levels = api.requests.map((r) => r.payload?.level);
    expect(levels).toEqual(['lossless', 'jymaster', 'higher', 'higher', 'exhigh']);
    // The app form's body is the bare form: no CSRF token, no `e_r`.
    expect(api.requests[0]!.payload).toEqual({ ids: '[1901371647]', level: 'lossless', encodeType: 'flac' });
  });

  it("sends the device in the desktop form's header and cookie, and the anonymous token without a login", async () => {
    await catalog.lyrics('1901371647');
    const [asked] = api.requests;
    expect(asked!.form).toBe('desktop');
    // The stand-in checked the header cookie is the payload's `header`; its values are the reference's.
    expect(asked!.cookie).toMatch(/(?:^|; )os=pc(?:;|$)/);
    expect(asked!.cookie).toMatch(/(?:^|; )appver=3\.1\.17\.204416(?:;|$)/);
    expect(asked!.cookie).toMatch(/(?:^|; )versioncode=140(?:;|$)/);
    expect(asked!.musicA).toBe(FIXTURE_MUSIC_A);
    expect(asked!.userAgent).toBe('NeteaseMusic 9.0.90/5038 (iPhone; iOS 16.2; zh_CN)');
  });

  it('sends the device cookies with every web call: a fresh visitor id and NMTID each time', async () => {
    await catalog.recommendedPlaylists(6);
    await catalog.recommendedPlaylists(6);
    const cookies = api.requests.map((r) => cookieValues(r.cookie));
    expect(cookies.map((c) => c.get('deviceId'))).toEqual([
      cookies[0]!.get('deviceId'),
      cookies[0]!.get('deviceId'),
    ]);
    expect(cookies[0]!.get('_ntes_nuid')).not.toBe(cookies[1]!.get('_ntes_nuid'));
    expect(cookies[0]!.get('NMTID')).not.toBe(cookies[1]!.get('NMTID'));
    expect(cookies.every((c) => c.get('MUSIC_A') === FIXTURE_MUSIC_A && c.get('WEVNSM') === '1.0.0')).toBe(
      true,
    );
    // One registration for the whole file: the device is kept, not registered per call.
    expect(api.registrations).toHaveLength(1);
  });
});
