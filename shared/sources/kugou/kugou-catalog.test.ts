/**
 * The `music_c` catalog's search, look-ups and lyrics against an msw stand-in for Kugou Music's app
 * API that checks every request's signature and parameters (tests/helpers/kugou-api.ts).
 */
import { describe, expect, it } from 'vitest';
import { encryptKrc, FIXTURE_LRC, useKugouApi } from '../../../tests/helpers/kugou-api';
import { KugouCatalog } from './kugou-catalog';
import { KugouClient } from './kugou-client';
import { type KugouLogin, parseKugouCookie } from './kugou-login';
import { paramsKey } from './kugou-signing';

const api = useKugouApi();
let login: KugouLogin | undefined;
const client = new KugouClient(async () => login);
const catalog = new KugouCatalog(client);
const HARBOUR = 'A1B2C3D4E5F60718293A4B5C6D7E8F90';
const PLAYLIST = 'collection_3_1000001_1_0';

const harbour = {
  id: HARBOUR,
  name: 'Fixture Harbour',
  artist: 'Fixture Band',
  album: 'Fixture Shores',
  duration: 214,
  coverUrl: 'http://imge.kugou.com/stdmusic/400/20240101/fixture-harbour.jpg',
  platform: 'music_c',
};
const eveningMix = {
  id: PLAYLIST,
  name: 'Fixture Evening Mix',
  coverUrl: 'http://c1.kgimg.com/custom/400/20240103/fixture-evening.jpg',
  songCount: 42,
  platform: 'music_c',
};
const velvet = {
  id: 'D1B2C3D4E5F60718293A4B5C6D7E8F93',
  name: 'Fixture Velvet',
  artist: 'Fixture Singer',
  album: 'Fixture Members Only',
  duration: 187,
  coverUrl: 'http://imge.kugou.com/stdmusic/400/20240102/fixture-velvet.jpg',
  platform: 'music_c',
  vip: true,
};

describe('Kugou search', () => {
  it('finds songs by their hash, marking VIP songs', async () => {
    expect(await catalog.search('harbour', 2)).toEqual({ ok: true, value: [harbour, velvet] });
    expect(api.requests[0]).toMatchObject({
      path: '/v3/search/song',
      router: 'complexsearch.kugou.com',
      query: { keyword: 'harbour', page: '1', pagesize: '2', platform: 'AndroidFilter' },
    });
  });

  it('asks for the page an offset falls on, or a larger first page when it is not whole', async () => {
    await catalog.search('harbour', 10, 20);
    expect(api.requests[0]!.query).toMatchObject({ page: '3', pagesize: '10' });
    const shifted = await catalog.search('harbour', 2, 1);
    expect(api.requests[1]!.query).toMatchObject({ page: '1', pagesize: '3' });
    expect(shifted).toEqual({ ok: true, value: [velvet] });
  });

  it('finds albums and playlists', async () => {
    expect(await catalog.searchAlbums('shores', 5)).toEqual({
      ok: true,
      value: [
        {
          id: '90001',
          name: 'Fixture Shores',
          artist: 'Fixture Band / Fixture Guest',
          coverUrl: 'http://imge.kugou.com/stdmusic/400/20240101/fixture-shores.jpg',
          songCount: 10,
          platform: 'music_c',
        },
      ],
    });
    expect(await catalog.searchPlaylists('evening', 5)).toEqual({
      ok: true,
      value: [eveningMix],
    });
    expect(api.requests.map((r) => r.path)).toEqual(['/v1/search/album', '/v1/search/special']);
  });
});

describe('Kugou look-ups', () => {
  it('finds a song by its hash in any case', async () => {
    expect(await catalog.song(HARBOUR.toLowerCase())).toEqual({ ok: true, value: harbour });
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      router: 'media.store.kugou.com',
      body: { resource: [{ type: 'audio', hash: HARBOUR.toLowerCase() }], behavior: 'play' },
    });
  });

  it('knows no song for an unknown hash, and asks nothing for what is not a hash', async () => {
    expect(await catalog.song('00000000000000000000000000000000')).toEqual({ ok: true, value: undefined });
    expect(await catalog.song('not-a-hash')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(1);
  });

  it("loads a playlist's songs, leaving out the ones without a file and counting them", async () => {
    const result = await catalog.playlist(PLAYLIST);
    expect(result).toEqual({
      ok: true,
      value: { songs: [harbour, { ...velvet, album: 'Fixture Members Only' }], totalCount: 3 },
    });
    expect(api.to('/pubsongs/v2/get_other_list_file_nofilt')[0]!.query).toMatchObject({
      global_collection_id: PLAYLIST,
      begin_idx: '0',
      pagesize: '300',
    });
  });

  it('reads a long playlist page by page', async () => {
    const song = { hash: HARBOUR, name: 'Fixture Band - Fixture Harbour', timelen: 214000 };
    api.answer('/pubsongs/v2/get_other_list_file_nofilt', ({ query }) =>
      Response.json({
        status: 1,
        error_code: 0,
        data: { songs: Array.from({ length: query.begin_idx === '0' ? 300 : 5 }, () => song) },
      }),
    );
    const result = await catalog.playlist(PLAYLIST);
    expect(result.ok && result.value?.songs).toHaveLength(305);
    expect(api.to('/pubsongs/v2/get_other_list_file_nofilt').map((r) => r.query.begin_idx)).toEqual([
      '0',
      '300',
    ]);
  });

  it('has no playlist for an unknown id, and asks for no songs', async () => {
    expect(await catalog.playlist('collection_3_404_0_0')).toEqual({ ok: true, value: undefined });
    expect(api.to('/pubsongs/v2/get_other_list_file_nofilt')).toHaveLength(0);
  });

  it("describes a playlist, sending the login's token", async () => {
    login = parseKugouCookie('token=fixturetoken0001; userid=123456789');
    expect(await catalog.playlistDetail(PLAYLIST)).toEqual({
      ok: true,
      value: {
        id: PLAYLIST,
        name: 'Fixture Evening Mix',
        description: 'Songs for a made-up evening.',
        coverUrl: 'http://c1.kgimg.com/custom/400/20240103/fixture-evening.jpg',
        songCount: 3,
      },
    });
    expect(api.requests[0]!.body).toEqual({
      data: [{ global_collection_id: PLAYLIST }],
      userid: 123456789,
      token: 'fixturetoken0001',
    });
    login = undefined;
  });

  it("loads an album's songs; an empty or malformed album id is no album", async () => {
    expect(await catalog.album('90001')).toEqual({ ok: true, value: { songs: [harbour] } });
    expect(api.requests[0]).toMatchObject({
      router: 'openapi.kugou.com',
      body: { album_id: '90001', page: 1 },
    });
    api.answer('/v1/album_audio/lite', { status: 1, error_code: 0, data: { total: 0, songs: [] } });
    expect(await catalog.album('90009')).toEqual({ ok: true, value: undefined });
    expect(await catalog.album('abc')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(2);
  });

  it('recommends playlists, signing the body with its client time', async () => {
    const result = await catalog.recommendedPlaylists(1);
    expect(result).toEqual({
      ok: true,
      value: [eveningMix],
    });
    const body = api.requests[0]!.body as { clienttime: string; key: string; pagesize: number };
    expect(api.requests[0]!.router).toBe('specialrec.service.kugou.com');
    expect(body.key).toBe(paramsKey(Number(body.clienttime)));
    expect(body.pagesize).toBe(1);
  });
});

describe('Kugou lyrics', () => {
  it('finds the candidate by hash, downloads its KRC and answers LRC', async () => {
    expect(await catalog.lyrics(HARBOUR)).toEqual({ ok: true, value: FIXTURE_LRC });
    expect(api.requests.map((r) => r.path)).toEqual(['/v1/search', '/download']);
    expect(api.requests[0]!.query).toMatchObject({ hash: HARBOUR, man: 'no', lrctxt: '1' });
    expect(api.requests[0]!.query).not.toHaveProperty('mid');
    expect(api.requests[1]!.query).toMatchObject({
      id: '90000001',
      accesskey: 'FIXTUREACCESSKEY0001',
      fmt: 'krc',
      charset: 'utf8',
    });
  });

  it('takes plain LRC when asked with fmt=lrc', async () => {
    const lrcCatalog = new KugouCatalog(client, 'lrc');
    expect(await lrcCatalog.lyrics(HARBOUR)).toEqual({
      ok: true,
      value: '[ar:Fixture Band]\n[ti:Fixture Harbour]\n[00:01.23]Harbour lights glow\n[01:01.05]We sail home',
    });
    expect(api.requests[1]!.query.fmt).toBe('lrc');
  });

  it('has no lyrics without a candidate or content', async () => {
    api.answer('/v1/search', { status: 200, candidates: [] });
    expect(await catalog.lyrics(HARBOUR)).toEqual({ ok: true, value: undefined });
    api.answer('/v1/search', { status: 200, candidates: [{ id: 1, accesskey: 'k' }] });
    api.answer('/download', { status: 200, content: '', fmt: 'krc', contenttype: 0 });
    expect(await catalog.lyrics(HARBOUR)).toEqual({ ok: true, value: undefined });
  });

  it('says so when the lyric service fails or sends something undecodable', async () => {
    api.answer('/download', {
      status: 200,
      content: Buffer.from('krc1broken').toString('base64'),
      contenttype: 0,
    });
    expect(await catalog.lyrics(HARBOUR)).toEqual({
      ok: false,
      error: 'Kugou Music sent lyrics that could not be decoded',
    });
    api.answer('/download', { status: 404, content: encryptKrc('x') });
    expect(await catalog.lyrics(HARBOUR)).toEqual({
      ok: false,
      error: 'Kugou Music could not send the lyrics',
    });
    api.answer('/v1/search', { status: 500 });
    expect(await catalog.lyrics(HARBOUR)).toEqual({
      ok: false,
      error: 'Kugou Music could not search for the lyrics',
    });
  });
});
