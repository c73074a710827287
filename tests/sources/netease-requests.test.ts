/**
 * What the `music_a` adapter sends inside its weapi payloads. weapi's random secret is pinned here (and
 * only here), so the msw stand-in can undo both AES layers and show each request's payload; the other
 * NetEase test files check what is read from the answers.
 */
import { describe, expect, it, vi } from 'vitest';
import { NeteaseCatalog } from '../../shared/sources/netease/netease-catalog';
import { NeteaseClient } from '../../shared/sources/netease/netease-client';
import { type NeteaseLogin, parseNeteaseCookie } from '../../shared/sources/netease/netease-login';
import { NeteaseSource } from '../../shared/sources/netease/netease-source';
import { useNeteaseApi } from '../helpers/netease-api';

const SECRET = vi.hoisted(() => 'PinnedFixture016');
vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) =>
  (await import('../helpers/weapi-pin')).weapiPinnedTo(SECRET, await importOriginal()),
);

const api = useNeteaseApi({ weapiSecret: SECRET });
let login: NeteaseLogin | undefined;
const client = new NeteaseClient(async () => login);
const catalog = new NeteaseCatalog(client);
const SONG = { id: '1901371647', platform: 'music_a' } as const;

const sent = () => api.requests.map((r) => [r.path, r.payload]);

describe('NetEase weapi payloads', () => {
  it('searches albums with cloudsearch type 10 and playlists with type 1000', async () => {
    await catalog.searchAlbums('harbour', 10, 20);
    await catalog.searchPlaylists('evening', 5);
    expect(sent()).toEqual([
      ['/weapi/cloudsearch/get/web', { s: 'harbour', type: 10, limit: 10, offset: 20, csrf_token: '' }],
      ['/weapi/cloudsearch/get/web', { s: 'evening', type: 1000, limit: 5, offset: 0, csrf_token: '' }],
    ]);
  });

  it('asks for every lyric version (lv, tv, kv -1) of the song', async () => {
    await catalog.lyrics('1901371647');
    expect(sent()).toEqual([
      ['/weapi/song/lyric', { id: 1901371647, lv: -1, tv: -1, kv: -1, csrf_token: '' }],
    ]);
  });

  it('asks for playlist details by numeric id', async () => {
    await catalog.playlistDetail('7000000001');
    expect(sent()).toEqual([
      ['/weapi/v6/playlist/detail', { id: 7000000001, n: 100_000, s: 8, csrf_token: '' }],
    ]);
  });

  it('anonymous recommendations carry the limit; personal ones the login csrf token', async () => {
    await catalog.recommendedPlaylists(6);
    login = parseNeteaseCookie('MUSIC_U=u; __csrf=tok123');
    await catalog.recommendedPlaylists(6);
    await catalog.dailySongs();
    login = undefined;
    expect(sent()).toEqual([
      ['/weapi/personalized/playlist', { limit: 6, total: true, n: 1000, csrf_token: '' }],
      ['/weapi/v1/discovery/recommend/resource', { csrf_token: 'tok123' }],
      ['/weapi/v3/discovery/recommend/songs', { csrf_token: 'tok123' }],
    ]);
  });

  it("lists the account's playlists by the uid the account check answers, up to 1000", async () => {
    login = parseNeteaseCookie('MUSIC_U=u; __csrf=tok123');
    await catalog.userPlaylists();
    login = undefined;
    expect(sent()).toEqual([
      ['/weapi/w/nuser/account/get', { csrf_token: 'tok123' }],
      [
        '/weapi/user/playlist',
        { uid: 90000010, limit: 1000, offset: 0, includeVideo: true, csrf_token: 'tok123' },
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
    expect(api.requests[0]!.payload).toEqual({
      ids: '[1901371647]',
      level: 'lossless',
      encodeType: 'flac',
      csrf_token: '',
    });
  });
});
