/** The `music_a` catalog against an msw stand-in for NetEase Cloud Music's weapi (real request shapes). */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { musicUOf, neteaseFixture, useNeteaseApi } from '../../../tests/helpers/netease-api';
import { NeteaseCatalog } from './netease-catalog';
import { NeteaseClient, RISKY_NETWORK } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import type { NeteaseLogin } from './netease-login-shape';

const api = useNeteaseApi();
const SHARED_COOKIE = 'MUSIC_U=shared_music_u; __csrf=sharedcsrf; NMTID=fixture';
const PERSONAL_COOKIE = 'MUSIC_U=personal_music_u; __csrf=personalcsrf';
let login: NeteaseLogin | undefined;
const catalog = new NeteaseCatalog(new NeteaseClient(async () => login));

const PAPER_BOATS = {
  id: '1901371647',
  name: 'Paper Boats',
  artist: 'River Lane / Kite Hill',
  album: 'Harbour Lights',
  duration: 246,
  coverUrl: 'https://p1.music.126.net/FixtureCoverHarbour0000==/109951000000000001.jpg',
  platform: 'music_a' as const,
};

describe('NetEase catalog', () => {
  it('searches songs through cloudsearch and maps them to Songs', async () => {
    login = undefined;
    const result = await catalog.search('paper', 20);
    // The desktop client's search, anonymous: the device's token, no login.
    expect(api.requests).toEqual([
      expect.objectContaining({ form: 'desktop', path: '/eapi/cloudsearch/pc', musicU: undefined }),
    ]);
    expect(api.requests[0]!.musicA).toEqual(expect.any(String));
    expect(result).toEqual({
      ok: true,
      value: [
        PAPER_BOATS,
        {
          id: '1901371648',
          name: 'Member Song',
          artist: 'Velvet Choir',
          album: 'Gold Members',
          duration: 201,
          coverUrl: 'https://p2.music.126.net/FixtureCoverGoldMember==/109951000000000002.jpg',
          platform: 'music_a',
          vip: true,
        },
      ],
    });
  });

  it('sends the stored login cookie', async () => {
    login = parseNeteaseCookie(SHARED_COOKIE);
    await catalog.search('paper', 5);
    login = undefined;
    expect(api.requests[0]!.musicU).toBe(musicUOf(SHARED_COOKIE));
  });

  it('answers an empty search with no songs', async () => {
    api.answer('/eapi/cloudsearch/pc', { result: { songCount: 0 }, code: 200 });
    expect(await catalog.search('nothing', 5)).toEqual({ ok: true, value: [] });
  });

  it('finds a song by id through song detail; an unknown or non-numeric id is undefined', async () => {
    expect(await catalog.song('1901371647')).toEqual({ ok: true, value: PAPER_BOATS });
    expect(api.requests.map((r) => r.path)).toEqual(['/weapi/v3/song/detail']);
    api.answer('/weapi/v3/song/detail', { songs: [], privileges: [], code: 200 });
    expect(await catalog.song('42')).toEqual({ ok: true, value: undefined });
    expect(await catalog.song('not-a-number')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(2);
  });

  it('lists every track of a playlist, fetching the ones missing from `tracks`, and marks unplayable ones', async () => {
    const late = neteaseFixture('playlist') as { playlist: { tracks: { id: number }[] } };
    const detail = neteaseFixture('song-detail') as { songs: Record<string, unknown>[] };
    api.answer('/eapi/v3/song/detail', {
      songs: [
        { ...detail.songs[0], id: 1901371650, name: 'Late Track', ar: [{ name: 'River Lane' }], dt: 199499 },
      ],
      privileges: [{ id: 1901371650, fee: 8, st: 0 }],
      code: 200,
    });
    const result = await catalog.playlist('7000000001');
    expect(late.playlist.tracks).toHaveLength(3);
    // The missing tracks are looked up as the reference's playlist_track_all does: the desktop form.
    expect(api.requests.map((r) => r.path)).toEqual(['/eapi/v6/playlist/detail', '/eapi/v3/song/detail']);
    expect(result.ok && result.value?.totalCount).toBeUndefined();
    expect(result.ok && result.value?.songs.map((s) => [s.id, s.name, s.duration, s.vip ?? false])).toEqual([
      ['1901371647', 'Paper Boats', 246, false],
      ['1901371648', 'Member Song', 201, true],
      ['1901371649', 'Gone Tune', 180, true],
      ['1901371650', 'Late Track', 199, false],
    ]);
  });

  it('answers undefined for an unknown playlist (code 404) without a second request', async () => {
    api.answer('/eapi/v6/playlist/detail', { code: 404, message: '歌单不存在' });
    expect(await catalog.playlist('1')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(1);
  });

  it('loads an album by id from the album path', async () => {
    const result = await catalog.album('150000001');
    expect(api.requests.map((r) => r.path)).toEqual(['/weapi/v1/album/150000001']);
    expect(result.ok && result.value?.songs.map((s) => [s.name, s.artist, s.album])).toEqual([
      ['Paper Boats', 'River Lane / Kite Hill', 'Harbour Lights'],
      ['Late Track', 'River Lane', 'Harbour Lights'],
    ]);
    api.answer('/weapi/v1/album/9', { code: 404, msg: 'not found' });
    expect(await catalog.album('9')).toEqual({ ok: true, value: undefined });
  });

  it('reads personal FM (older field names) as the personal account when one is given', async () => {
    login = parseNeteaseCookie(SHARED_COOKIE);
    const personal = await catalog.personalFm(PERSONAL_COOKIE);
    const shared = await catalog.personalFm();
    login = undefined;
    expect(api.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([
      ['/weapi/v1/radio/get', musicUOf(PERSONAL_COOKIE)],
      ['/weapi/v1/radio/get', musicUOf(SHARED_COOKIE)],
    ]);
    expect(personal).toEqual(shared);
    expect(personal).toEqual({
      ok: true,
      value: [
        {
          id: '1901371651',
          name: 'Morning Walk',
          artist: 'Field Notes',
          album: 'Open Air',
          duration: 212,
          coverUrl: 'https://p4.music.126.net/FixtureCoverOpenAir0000==/109951000000000010.jpg',
          platform: 'music_a',
        },
        {
          id: '1901371652',
          name: 'Night Drive',
          artist: 'Neon Lane / Kite Hill',
          album: 'Late Roads',
          duration: 187,
          coverUrl: 'https://p4.music.126.net/FixtureCoverLateRoads00==/109951000000000011.jpg',
          platform: 'music_a',
          vip: true,
        },
      ],
    });
  });

  it("gives NetEase's similar songs for a seed, the seed left out, up to the limit", async () => {
    const result = await catalog.relatedSongs(PAPER_BOATS, 10);
    expect(api.requests.map((r) => [r.form, r.path])).toEqual([['web', '/weapi/v1/discovery/simiSong']]);
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: '1901371671',
          name: 'Tide Tables',
          artist: 'River Lane',
          album: 'Harbour Lights',
          duration: 232,
          coverUrl: PAPER_BOATS.coverUrl,
          platform: 'music_a',
        },
        {
          id: '1901371672',
          name: 'Lantern Row',
          artist: 'Kite Hill',
          album: 'Lantern Row',
          duration: 198,
          coverUrl: 'https://p3.music.126.net/FixtureCoverLantern000==/109951000000000012.jpg',
          platform: 'music_a',
          vip: true,
        },
        expect.objectContaining({ id: '1901371673', name: 'Quay Song' }),
      ],
    });
    const two = await catalog.relatedSongs(PAPER_BOATS, 2);
    expect(two.ok && two.value.map((s) => s.name)).toEqual(['Tide Tables', 'Lantern Row']);
  });

  it('a refused similar-songs request is a readable error', async () => {
    api.answer('/weapi/v1/discovery/simiSong', {
      code: -460,
      message: '检测到您的网络环境存在风险，请稍后再试',
    });
    expect(await catalog.relatedSongs(PAPER_BOATS, 5)).toEqual({ ok: false, error: RISKY_NETWORK });
    api.answer('/weapi/v1/discovery/simiSong', () => new HttpResponse('bad gateway', { status: 502 }));
    expect(await catalog.relatedSongs(PAPER_BOATS, 5)).toEqual({
      ok: false,
      error: 'NetEase Cloud Music answered HTTP 502',
    });
  });

  it('says FM needs a login when NetEase answers 301', async () => {
    api.answer('/weapi/v1/radio/get', { code: 301, msg: '需要登录' });
    expect(await catalog.personalFm()).toEqual({
      ok: false,
      error: 'NetEase Cloud Music needs a login for this; log in first',
    });
    login = parseNeteaseCookie(SHARED_COOKIE);
    expect(await catalog.personalFm()).toEqual({
      ok: false,
      error: 'the NetEase Cloud Music login has expired; log in again',
    });
    login = undefined;
  });

  it('turns a refusal, a network failure and an odd answer into readable errors', async () => {
    api.answer('/eapi/cloudsearch/pc', { code: -462, message: 'Cheating' });
    expect(await catalog.search('x', 5)).toEqual({
      ok: false,
      error: 'NetEase Cloud Music refused /eapi/cloudsearch/pc (code -462: Cheating)',
    });
    api.answer('/eapi/cloudsearch/pc', () => HttpResponse.error());
    const offline = await catalog.search('x', 5);
    expect(!offline.ok && offline.error).toMatch(/^NetEase Cloud Music could not be reached/);
    api.answer('/eapi/cloudsearch/pc', () => new HttpResponse('busy', { status: 503 }));
    expect(await catalog.search('x', 5)).toEqual({
      ok: false,
      error: 'NetEase Cloud Music answered HTTP 503',
    });
    api.answer('/eapi/cloudsearch/pc', { code: 200, result: { songs: [{ id: 'x' }] } });
    expect(await catalog.search('x', 5)).toEqual({
      ok: false,
      error: 'NetEase Cloud Music answered /eapi/cloudsearch/pc in an unexpected shape',
    });
  });

  it('reads a login only from a cookie that has MUSIC_U', () => {
    expect(parseNeteaseCookie(' MUSIC_U=abc; __csrf=def ')).toEqual({
      cookie: 'MUSIC_U=abc; __csrf=def',
      csrf: 'def',
    });
    expect(parseNeteaseCookie('MUSIC_U=abc')).toEqual({ cookie: 'MUSIC_U=abc', csrf: '' });
    expect(parseNeteaseCookie('__csrf=def; NMTID=1')).toBeUndefined();
  });
});
