/**
 * The browse side of /api/music — search, a song, an album, a playlist and its details, lyrics —
 * through the real app, with msw standing in for NetEase Cloud Music (music_a, the default source) and
 * QQ Music (music_b), and Bilibili (video_a) where a source keeps no lyrics: the platforms' answers
 * mapped to the API's shapes, 404 for what a platform does not know, 501 where the source has no such
 * look-up (`local`), 400 for a disabled source and 502 with the platform's sentence when it refuses.
 * Lyrics a known song lacks are `{lyrics: ""}`, never a 404.
 */
import { describe, expect, it } from 'vitest';
import { receipts } from '../../shared/receipts';
import { type Session, withAdminApp } from '../../testkit/accounts';
import { useBilibiliApi } from '../helpers/bilibili-api';
import { useNeteaseApi } from '../helpers/netease-api';
import { failedWith, useQqMusicApi } from '../helpers/qq-music-api';

const netease = useNeteaseApi();
const qq = useQqMusicApi();
useBilibiliApi();
let admin: Session;
withAdminApp((_, session) => {
  admin = session;
});

/** song-detail.json's and search.json's first track, as the API answers it. */
const PAPER_BOATS = {
  ...{ id: '1901371647', name: 'Paper Boats', artist: 'River Lane / Kite Hill', album: 'Harbour Lights' },
  ...{ duration: 246, platform: 'music_a' },
  coverUrl: 'https://p1.music.126.net/FixtureCoverHarbour0000==/109951000000000001.jpg',
};
const DISS_INFO = 'music.srfDissInfo.DissInfo.CgiGetDiss';
const LOCAL = { platform: 'local' } as const;

describe('GET /api/music/search', () => {
  it('searches the default source (music_a) when no platform is given', async () => {
    const { data, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'paper' } },
    });
    expect(response.status).toBe(200);
    expect(data?.songs[0]).toEqual(PAPER_BOATS);
    expect(data?.songs.map((s) => s.name)).toEqual(['Paper Boats', 'Member Song']);
    // The song-search answer has no album or playlist hits.
    expect(data).toMatchObject({ albums: [], playlists: [] });
    expect(qq.requests).toEqual([]);
  });

  it("answers music_b's songs, albums and playlists, asking for the page the limit and offset name", async () => {
    const { data, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'leaf', platform: 'music_b', limit: 2, offset: 2 } },
    });
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.id, s.name, s.platform])).toEqual([
      ['0039MnYb0qxYhV', 'Sunny Day', 'music_b'],
      ['001VipTrack001', 'Paid Tune', 'music_b'],
    ]);
    expect(data?.albums.map((a) => [a.id, a.name, a.songCount])).toEqual([
      ['000MkMni19ClKG', 'Leaf Album', 10],
      ['002DuetAlbum01', 'Two Voices', 4],
    ]);
    expect(data?.playlists.map((p) => [p.id, p.name])).toEqual([
      ['7256912512', 'Chill Mix'],
      ['8100000001', 'Rainy Evenings'],
    ]);
    // The three searches go out together: compare them in search-type order.
    const byType = qq.requests
      .map((r) => r.req_0.param)
      .sort((a, b) => Number(a.search_type) - Number(b.search_type));
    expect(byType).toEqual(
      [0, 2, 3].map((type) =>
        expect.objectContaining({ query: 'leaf', search_type: type, num_per_page: 2, page_num: 2 }),
      ),
    );
    expect(netease.requests).toEqual([]);
  });

  it('asks for 20 results from the first when no limit or offset is given (SPEC Limits)', async () => {
    const { response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'leaf', platform: 'music_b' } },
    });
    expect(response.status).toBe(200);
    expect(qq.requests.map((r) => r.req_0.param)).toEqual(
      [0, 2, 3].map((type) =>
        expect.objectContaining({ query: 'leaf', search_type: type, num_per_page: 20, page_num: 1 }),
      ),
    );
  });

  it('refuses a disabled source (library_a is opt-in) with 400 before asking anyone', async () => {
    const { error, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'x', platform: 'library_a' } },
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: receipts.sourceNotEnabled('library_a') });
  });
});

describe('GET /api/music/song/{id}', () => {
  it('answers the song, mapped', async () => {
    const { data, response } = await admin.api.GET('/api/music/song/{id}', {
      params: { path: { id: '1901371647' } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual(PAPER_BOATS);
    expect(netease.requests.map((r) => r.path)).toEqual(['/weapi/v3/song/detail']);
  });

  it('answers 404 for a song the platform does not know', async () => {
    netease.answer('/weapi/v3/song/detail', { songs: [], privileges: [], code: 200 });
    const { error, response } = await admin.api.GET('/api/music/song/{id}', {
      params: { path: { id: '42' }, query: { platform: 'music_a' } },
    });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: 'song not found' });
  });

  it("answers 502 with the platform's sentence when it refuses", async () => {
    qq.answer('music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo', failedWith(104005));
    const { error, response } = await admin.api.GET('/api/music/song/{id}', {
      params: { path: { id: '0039MnYb0qxYhV' }, query: { platform: 'music_b' } },
    });
    expect(response.status).toBe(502);
    expect(error).toMatchObject({ error: 'music_b: QQ Music refused CgiGetTrackInfo (code 104005)' });
  });
});

describe('GET /api/music/album/{id} and /playlist/{id}', () => {
  it("answers an album's songs", async () => {
    const { data, response } = await admin.api.GET('/api/music/album/{id}', {
      params: { path: { id: '000MkMni19ClKG' }, query: { platform: 'music_b' } },
    });
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.name, s.platform])).toEqual([
      ['Sunny Day', 'music_b'],
      ['Rainy Day', 'music_b'],
    ]);
  });

  it('answers every song of a music_b playlist, those that cannot play marked vip', async () => {
    const { data, response } = await admin.api.GET('/api/music/playlist/{id}', {
      params: { path: { id: '7256912512' }, query: { platform: 'music_b' } },
    });
    expect(response.status).toBe(200);
    // Track B needs VIP (no login here) and Track D has no audio file: shown, marked. Only playing
    // the playlist leaves them out (SPEC Player rule 7).
    expect(data?.songs.map((s) => [s.name, s.vip ?? false])).toEqual([
      ['Track A', false],
      ['Track B', true],
      ['Track C', false],
      ['Track D', true],
      ['Track E', false],
    ]);
  });

  it('answers 404 for an unknown album or playlist', async () => {
    netease.answer('/weapi/v1/album/9', { code: 404, msg: 'not found' });
    netease.answer('/eapi/v6/playlist/detail', { code: 404, message: '歌单不存在' });
    const album = await admin.api.GET('/api/music/album/{id}', { params: { path: { id: '9' } } });
    expect(album.response.status).toBe(404);
    expect(album.error).toMatchObject({ error: 'album not found' });
    const playlist = await admin.api.GET('/api/music/playlist/{id}', { params: { path: { id: '1' } } });
    expect(playlist.response.status).toBe(404);
    expect(playlist.error).toMatchObject({ error: 'playlist not found' });
  });

  it('answers 501 where the source has no playlists (local), and 404 for an album no upload names', async () => {
    const playlist = await admin.api.GET('/api/music/playlist/{id}', {
      params: { path: { id: 'any' }, query: LOCAL },
    });
    expect(playlist.response.status).toBe(501);
    const album = await admin.api.GET('/api/music/album/{id}', {
      params: { path: { id: 'any' }, query: LOCAL },
    });
    expect(album.response.status).toBe(404);
  });
});

describe('GET /api/music/playlist/{id}/detail', () => {
  it("answers the playlist's name, description, cover and song count", async () => {
    const { data, response } = await admin.api.GET('/api/music/playlist/{id}/detail', {
      params: { path: { id: '7000000001' } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      playlist: {
        id: '7000000001',
        name: 'Evening Mix',
        description: 'A made-up playlist for tests.',
        coverUrl: 'https://p1.music.126.net/FixtureCoverPlaylist000==/109951000000000009.jpg',
        songCount: 4,
      },
    });
  });

  it('answers 404 for an unknown playlist', async () => {
    qq.answer(DISS_INFO, { code: 0, req_0: { code: 0, data: { dirinfo: { id: 0 }, songlist: [] } } });
    const { error, response } = await admin.api.GET('/api/music/playlist/{id}/detail', {
      params: { path: { id: '1' }, query: { platform: 'music_b' } },
    });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: 'playlist not found' });
  });

  it('answers 501 for a source that cannot describe playlists (local)', async () => {
    const { error, response } = await admin.api.GET('/api/music/playlist/{id}/detail', {
      params: { path: { id: 'any' }, query: LOCAL },
    });
    expect(response.status).toBe(501);
    expect(error).toMatchObject({ error: 'the source local has no playlist details' });
  });

  it("answers 502 with the platform's sentence when it refuses", async () => {
    netease.answer('/eapi/v6/playlist/detail', { code: 401, message: '无权限访问' });
    const { error, response } = await admin.api.GET('/api/music/playlist/{id}/detail', {
      params: { path: { id: '7000000003' } },
    });
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error: 'music_a: NetEase Cloud Music refused /eapi/v6/playlist/detail (code 401: 无权限访问)',
    });
  });
});

describe('GET /api/music/lyrics/{id}', () => {
  it('answers LRC text with each translation after its original line', async () => {
    const { data, response } = await admin.api.GET('/api/music/lyrics/{id}', {
      params: { path: { id: '1901371647' } },
    });
    expect(response.status).toBe(200);
    expect(data?.lyrics.split('\n').slice(2, 4)).toEqual([
      '[00:12.500]纸船顺着河流',
      '[00:12.500]Paper boats float down the river',
    ]);
  });

  it('answers empty lyrics, not 404, for a song the platform knows but has no lyrics for', async () => {
    netease.answer('/eapi/song/lyric', { code: 200, nolyric: true });
    const { data, response } = await admin.api.GET('/api/music/lyrics/{id}', {
      params: { path: { id: '1901371647' } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ lyrics: '' });
    expect(netease.requests.map((r) => r.path)).toEqual(['/eapi/song/lyric', '/weapi/v3/song/detail']);
  });

  it('answers 404 for a song the platform does not know', async () => {
    netease.answer('/eapi/song/lyric', { code: 200, nolyric: true });
    netease.answer('/weapi/v3/song/detail', { songs: [], privileges: [], code: 200 });
    const { error, response } = await admin.api.GET('/api/music/lyrics/{id}', {
      params: { path: { id: '42' } },
    });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: 'song not found' });
  });

  it('answers empty lyrics for a known song of a source that keeps none (video_a)', async () => {
    const known = await admin.api.GET('/api/music/lyrics/{id}', {
      params: { path: { id: 'BV1Ux4y1c7Mq' }, query: { platform: 'video_a' } },
    });
    expect([known.response.status, known.data]).toEqual([200, { lyrics: '' }]);
    const unknown = await admin.api.GET('/api/music/lyrics/{id}', {
      params: { path: { id: 'BV1xx411c7XX' }, query: { platform: 'video_a' } },
    });
    expect([unknown.response.status, unknown.error]).toEqual([
      404,
      expect.objectContaining({ error: 'song not found' }),
    ]);
  });

  it('answers 404 for an upload that does not exist (local)', async () => {
    const { error, response } = await admin.api.GET('/api/music/lyrics/{id}', {
      params: { path: { id: 'any' }, query: LOCAL },
    });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: 'song not found' });
  });
});
