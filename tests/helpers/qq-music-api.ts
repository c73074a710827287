/**
 * A stand-in for QQ Music's `musicu.fcg` gateway (msw): it checks each request has the real shape
 * (a JSON POST of `{comm, req_0: {module, method, param}}`) and answers the module/method pair from
 * the trimmed fixtures in tests/fixtures/qq-music. Tests swap single answers with `answer(...)` and
 * read what was asked in `requests`. Loopback requests pass through untouched (the api under test,
 * local audio servers).
 *
 * Shapes from jsososo/QQMusicApi (routes/song.js, routes/album.js) and L-1124/QQMusicApi
 * (qqmusic_api/modules/*.py); see tests/fixtures/qq-music/README.md.
 */
import { HttpResponse, http } from 'msw';
import { z } from 'zod';
import type { Playlist } from '../../shared/domain/schemas';
import { MUSICU_URL } from '../../shared/sources/qq-music/musicu-client';
import { useMswServer } from './msw-server';
import { readFixture, usePlatformStub } from './platform-stub';

export const MusicuRequestSchema = z.object({
  comm: z.object({ ct: z.number(), cv: z.number(), uin: z.string(), authst: z.string().optional() }),
  req_0: z.object({ module: z.string(), method: z.string(), param: z.record(z.string(), z.unknown()) }),
});
export type MusicuRequest = z.infer<typeof MusicuRequestSchema> & { cookie: string | null };

/** A fixture as the JSON body of an answer. */
const answerFixture = (name: string) => readFixture<Record<string, unknown>>('qq-music', name);
export const qqFixture = (name: string): unknown => answerFixture(name);

/**
 * The fixtures' "Rainy Evenings" playlist (a playlist search hit, and one the login's account
 * collected), as the catalog maps it.
 */
export const RAINY_EVENINGS: Playlist = {
  id: '8100000001',
  name: 'Rainy Evenings',
  coverUrl: 'http://qpic.y.qq.com/music_cover/FixtureCoverRain/300?n=1',
  songCount: 30,
  platform: 'music_b',
};

/** `DoSearchForQQMusicDesktop` answers per `search_type`: songs, albums, playlists. */
const SEARCH_ANSWERS: Record<number, string> = { 0: 'search', 2: 'search-albums', 3: 'search-playlists' };
const SEARCH = 'music.search.SearchCgiService.DoSearchForQQMusicDesktop';

/** The fixture answering each module.method pair by default. */
const DEFAULT_ANSWERS: Record<string, string> = {
  'music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo': 'track-info',
  'music.srfDissInfo.aiDissInfo.uniform_get_Dissinfo': 'playlist',
  'music.musichallAlbum.AlbumSongList.GetAlbumSongList': 'album',
  'vkey.GetVkeyServer.CgiGetVkey': 'vkey',
  'music.musichallSong.PlayLyricInfo.GetPlayLyricInfo': 'lyrics',
  'music.playlist.PlaylistSquare.GetRecommendFeed': 'recommend-playlists',
  'music.recommend.RecommendFeed.get_recommend_feed': 'home-feed',
  'music.radioProxy.MbTrackRadioSvr.get_radio_track': 'personal-radio',
  'music.UserInfo.userInfoServer.GetLoginUserInfo': 'login-user-info',
  'music.UnifiedHomepage.UnifiedHomepageSrv.GetHomepageHeader': 'homepage',
  'music.musicasset.PlaylistBaseRead.GetPlaylistByUin': 'created-playlists',
  'music.musicasset.PlaylistFavRead.CgiGetPlaylistFavInfo': 'collected-playlists',
};

function defaultFixture(key: string, param: Record<string, unknown>): string | undefined {
  return key === SEARCH ? SEARCH_ANSWERS[Number(param.search_type)] : DEFAULT_ANSWERS[key];
}

export function useQqMusicApi() {
  const stub = usePlatformStub<MusicuRequest>();
  useMswServer(
    http.post(MUSICU_URL, async ({ request }) => {
      const parsed = MusicuRequestSchema.safeParse(await request.json());
      if (!parsed.success || request.headers.get('content-type') !== 'application/json')
        return HttpResponse.json({ code: 500001 });
      const { module, method, param } = parsed.data.req_0;
      const asked = { ...parsed.data, cookie: request.headers.get('cookie') };
      stub.requests.push(asked);
      const key = `${module}.${method}`;
      return stub.reply(key, asked, () => {
        const fixture = defaultFixture(key, param);
        return HttpResponse.json(fixture ? answerFixture(fixture) : { code: 0, req_0: { code: 2000 } });
      });
    }),
  );
  return {
    requests: stub.requests,
    /** Answers `module.method` with this body (or Response) until the test ends. */
    answer: stub.answer,
  };
}

/** A musicu envelope whose request failed with this `req_0.code`. */
export const failedWith = (code: number) => ({ code: 0, req_0: { code, data: {} } });
