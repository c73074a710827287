/**
 * The `music_b` catalog's browsing (album and playlist search, playlist detail, lyrics, recommended
 * playlists) against an msw stand-in for QQ Music's `musicu.fcg` (real request shapes).
 */
import { describe, expect, it } from 'vitest';
import {
  encryptedLyric,
  failedWith,
  RAINY_EVENINGS,
  useQqMusicApi,
} from '../../../tests/helpers/qq-music-api';
import { MusicuClient } from './musicu-client';
import { QqMusicCatalog } from './qq-music-catalog';

const api = useQqMusicApi();
const catalog = new QqMusicCatalog(new MusicuClient(async () => undefined));
const LYRICS = 'music.musichallSong.PlayLyricInfo.GetPlayLyricInfo';
const DISS_INFO = 'music.srfDissInfo.DissInfo.CgiGetDiss';
const SEARCH = 'music.search.SearchCgiService.DoSearchForQQMusicMobile';
const lyricAnswer = (lyric: string, trans = '') => ({
  code: 0,
  req_0: {
    code: 0,
    data: { songID: 1, crypt: 1, lyric: encryptedLyric(lyric), trans: encryptedLyric(trans) },
  },
});

describe('QQ Music album and playlist search', () => {
  it('searches albums with search_type 2 and maps them to Albums', async () => {
    const result = await catalog.searchAlbums('leaf', 20);
    expect(api.requests[0]!.req_0).toEqual({
      module: 'music.search.SearchCgiService',
      method: 'DoSearchForQQMusicMobile',
      param: expect.objectContaining({ query: 'leaf', search_type: 2, num_per_page: 20, page_num: 1 }),
    });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: '000MkMni19ClKG',
          name: 'Leaf Album',
          artist: 'Singer One',
          coverUrl: 'http://y.gtimg.cn/music/photo_new/T002R180x180M000000MkMni19ClKG.jpg',
          songCount: 10,
          platform: 'music_b',
        },
        {
          id: '002DuetAlbum01',
          name: 'Two Voices',
          artist: 'Singer Two / Guest Three',
          // No picture in the hit: the cover is built from the album mid.
          coverUrl: 'https://y.gtimg.cn/music/photo_new/T002R300x300M000002DuetAlbum01.jpg',
          songCount: 4,
          platform: 'music_b',
        },
      ],
    });
  });

  it('searches playlists with search_type 3 and maps them to Playlists', async () => {
    const result = await catalog.searchPlaylists('mix', 20);
    expect(api.requests[0]!.req_0.param).toMatchObject({
      query: 'mix',
      search_type: 3,
      num_per_page: 20,
      page_num: 1,
    });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: '7256912512',
          name: 'Chill Mix',
          coverUrl: 'http://qpic.y.qq.com/music_cover/FixtureCoverChill/300?n=1',
          songCount: 5,
          platform: 'music_b',
        },
        RAINY_EVENINGS,
      ],
    });
  });

  it('pages album and playlist searches like song search', async () => {
    await catalog.searchAlbums('leaf', 10, 30);
    expect(api.requests[0]!.req_0.param).toMatchObject({ num_per_page: 10, page_num: 4 });
    const unaligned = await catalog.searchPlaylists('mix', 2, 1);
    expect(api.requests[1]!.req_0.param).toMatchObject({ num_per_page: 3, page_num: 1 });
    expect(unaligned.ok && unaligned.value.map((p) => p.name)).toEqual(['Rainy Evenings']);
  });

  it('says so when a search is refused', async () => {
    api.answer(SEARCH, failedWith(104005));
    expect(await catalog.searchPlaylists('mix', 5)).toEqual({
      ok: false,
      error: 'QQ Music refused DoSearchForQQMusicMobile (code 104005)',
    });
  });
});

describe('QQ Music playlist detail', () => {
  it("reads a playlist's dirinfo", async () => {
    const result = await catalog.playlistDetail('7256912512');
    expect(api.requests[0]!.req_0).toMatchObject({
      module: 'music.srfDissInfo.DissInfo',
      method: 'CgiGetDiss',
      param: { disstid: 7256912512, song_begin: 0, song_num: 1 },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        id: '7256912512',
        name: 'Chill Mix',
        description: 'Slow songs for slow evenings.',
        coverUrl: 'http://qpic.y.qq.com/music_cover/FixtureCoverChill/300?n=1',
        songCount: 5,
      },
    });
  });

  it('answers undefined for an unknown or non-numeric playlist, and passes failures on', async () => {
    api.answer(DISS_INFO, { code: 0, req_0: { code: 0, data: { dirinfo: { id: 0 }, songlist: [] } } });
    expect(await catalog.playlistDetail('1')).toEqual({ ok: true, value: undefined });
    expect(await catalog.playlistDetail('chill')).toEqual({ ok: true, value: undefined });
    api.answer(DISS_INFO, { code: 0, req_0: { code: 0, data: { dirinfo: { id: 'x' } } } });
    expect(await catalog.playlistDetail('7256912512')).toEqual({
      ok: false,
      error: 'QQ Music answered CgiGetDiss in an unexpected shape',
    });
  });
});

describe('QQ Music lyrics', () => {
  it('asks by songMid with crypt 1, decrypts the LRC and puts each translation after its line', async () => {
    const result = await catalog.lyrics('0039MnYb0qxYhV');
    expect(api.requests[0]!.req_0).toEqual({
      module: 'music.musichallSong.PlayLyricInfo',
      method: 'GetPlayLyricInfo',
      param: {
        crypt: 1,
        lrc_t: 0,
        qrc: 0,
        qrc_t: 0,
        roma: 0,
        roma_t: 0,
        trans: 1,
        trans_t: 0,
        needSingingAnnotations: false,
        type: 1,
        ct: 11,
        cv: 14090008,
        songMid: '0039MnYb0qxYhV',
      },
    });
    // `//` (untranslated) lines and the translation's own tags are left out.
    expect(result).toEqual({
      ok: true,
      value: [
        '[ti:Sunny Day]',
        '[ar:Singer One]',
        '[al:Leaf Album]',
        '[offset:0]',
        '[00:00.00]Sunny Day - Singer One',
        '[00:12.30]Morning light on the window',
        '[00:12.30]窗上的晨光',
        '[00:17.85]We walk down to the river',
        '[00:17.85]我们走向河边',
        '[00:23.10]La la la',
      ].join('\n'),
    });
  });

  it('keeps a song without translation as it is', async () => {
    api.answer(LYRICS, lyricAnswer('[00:01.00]Only line\n'));
    expect(await catalog.lyrics('0039MnYb0qxYhV')).toEqual({ ok: true, value: '[00:01.00]Only line' });
  });

  it('answers undefined for a song without lyrics, and passes failures on', async () => {
    api.answer(LYRICS, lyricAnswer(''));
    expect(await catalog.lyrics('000Unknown0000')).toEqual({ ok: true, value: undefined });
    api.answer(LYRICS, { code: 0, req_0: { code: 0, data: { lyric: 'not encrypted', trans: '' } } });
    expect(await catalog.lyrics('0039MnYb0qxYhV')).toEqual({
      ok: false,
      error: 'QQ Music sent lyrics that could not be decrypted',
    });
    api.answer(LYRICS, failedWith(24001));
    expect(await catalog.lyrics('0039MnYb0qxYhV')).toEqual({
      ok: false,
      error: 'QQ Music refused GetPlayLyricInfo (code 24001)',
    });
  });
});

describe('QQ Music recommended playlists', () => {
  it("reads the playlist square's recommendations", async () => {
    const result = await catalog.recommendedPlaylists(2);
    expect(api.requests[0]!.req_0).toEqual({
      module: 'music.playlist.PlaylistSquare',
      method: 'GetRecommendFeed',
      param: { From: 0, Size: 2 },
    });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: '9300000001',
          name: 'Morning Coffee',
          coverUrl: 'http://qpic.y.qq.com/music_cover/FixtureCoverCoffee/300?n=1',
          songCount: 42,
          platform: 'music_b',
        },
        {
          id: '9300000002',
          name: 'Night Drive',
          coverUrl: 'http://qpic.y.qq.com/music_cover/FixtureCoverNight/300?n=1',
          songCount: 25,
          platform: 'music_b',
        },
      ],
    });
  });

  it('keeps to the limit and names a failure', async () => {
    const one = await catalog.recommendedPlaylists(1);
    expect(one.ok && one.value).toHaveLength(1);
    api.answer('music.playlist.PlaylistSquare.GetRecommendFeed', {
      code: 0,
      req_0: { code: 0, data: { List: 3 } },
    });
    expect(await catalog.recommendedPlaylists(5)).toEqual({
      ok: false,
      error: 'QQ Music answered GetRecommendFeed in an unexpected shape',
    });
  });
});
