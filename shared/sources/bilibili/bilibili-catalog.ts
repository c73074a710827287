/**
 * The `video_a` catalog (Bilibili): video search, a song by its id (a video, or one part of a
 * multi-part video), the videos like one (for autoplay), and for the api's own Bilibili routes the
 * popular list and a video's parts.
 * Playlists and albums are not offered.
 *
 * Requests from SocialSisterYi/bilibili-API-collect: docs/search/search_request.md
 * (`/x/web-interface/wbi/search/type` with `search_type=video`, `keyword`, `page`, `page_size`),
 * docs/video_ranking/popular.md (`/x/web-interface/popular` with `ps`, `pn`), docs/video/recommend.md
 * (`/x/web-interface/archive/related` with `bvid`, unsigned), docs/video/info.md
 * (`view`) and docs/login/login_info.md (`nav` for the account).
 */
import type { Song } from '../../domain/schemas';
import { ok, type Result } from '../../result';
import type { VideoParts, VideoShelves } from '../shelf-catalogs';
import type { AccountStatus, SongCatalog } from '../song-catalog';
import type { BilibiliClient } from './bilibili-client';
import { PopularDataSchema, RelatedDataSchema, SearchDataSchema, type ViewData } from './bilibili-schemas';
import { httpsUrl, partToSong, searchRowToSong, videoToSong } from './bilibili-videos';
import { parseSongId, partSongId, videoQuery } from './video-ids';
import { fetchView } from './video-view';

export class BilibiliCatalog implements SongCatalog, VideoShelves {
  constructor(private readonly client: BilibiliClient) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    // The API pages by page number; an offset that is not a page boundary reads from the start.
    const aligned = offset % limit === 0;
    const answer = await this.client.call(
      {
        path: '/x/web-interface/wbi/search/type',
        params: {
          search_type: 'video',
          keyword: query,
          page: aligned ? offset / limit + 1 : 1,
          page_size: aligned ? limit : offset + limit,
        },
        what: 'search',
        signed: true,
      },
      SearchDataSchema,
    );
    if (!answer.ok) return answer;
    const rows = answer.value.result.filter((row) => row.type === 'video' && row.bvid);
    return ok((aligned ? rows : rows.slice(offset)).slice(0, limit).map(searchRowToSong));
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const ref = parseSongId(id);
    if (!ref) return ok(undefined);
    const view = await fetchView(this.client, { bvid: ref.bvid });
    if (!view.ok) return view;
    if (!view.value) return ok(undefined);
    if (ref.part === undefined) return ok(wholeVideo(view.value));
    const page = view.value.pages.find((p) => p.page === ref.part);
    return ok(page && partToSong(view.value, page));
  }

  /**
   * Songs like `song`: the videos Bilibili recommends beside it, the seed video (any of its parts)
   * left out. Multi-part videos are left out too: the list does not give their parts, so the length
   * of the first part (what a bare BV id plays) is not known.
   */
  async relatedSongs(song: Song, limit: number): Promise<Result<Song[]>> {
    const seed = parseSongId(song.id);
    if (!seed) return ok([]);
    const answer = await this.client.call(
      { path: '/x/web-interface/archive/related', params: { bvid: seed.bvid }, what: 'the related videos' },
      RelatedDataSchema,
    );
    if (!answer.ok) return answer;
    const others = answer.value.filter(
      (video) => video.videos === 1 && video.bvid !== seed.bvid && parseSongId(video.bvid),
    );
    return ok(others.slice(0, limit).map(videoToSong));
  }

  /** Bilibili's current popular videos. */
  async popular(limit: number): Promise<Result<Song[]>> {
    const answer = await this.client.call(
      { path: '/x/web-interface/popular', params: { ps: limit, pn: 1 }, what: 'the popular list' },
      PopularDataSchema,
    );
    return answer.ok ? ok(answer.value.list.slice(0, limit).map(videoToSong)) : answer;
  }

  /** A video's parts, from its BV id, `av` number or link; undefined when Bilibili does not know it. */
  async parts(reference: string): Promise<Result<VideoParts | undefined>> {
    const query = videoQuery(reference);
    if (!query) return ok(undefined);
    const view = await fetchView(this.client, query);
    if (!view.ok) return view;
    if (!view.value) return ok(undefined);
    const { bvid, title, pic, owner, pages } = view.value;
    return ok({
      bvid,
      title,
      coverUrl: httpsUrl(pic),
      artist: owner.name,
      parts: pages.map((p) => ({
        id: partSongId(bvid, p.page),
        page: p.page,
        title: p.part,
        duration: p.duration,
      })),
    });
  }

  async accountStatus(): Promise<Result<AccountStatus>> {
    if (!(await this.client.currentLogin())) return ok({ loggedIn: false });
    const nav = await this.client.nav();
    if (!nav.ok) return nav;
    const { isLogin, uname, face } = nav.value;
    return ok(
      isLogin
        ? { loggedIn: true, ...(uname && { nickname: uname }), ...(face && { avatarUrl: httpsUrl(face) }) }
        : { loggedIn: false },
    );
  }
}

/** A video named by its bare BV id plays its first part, so a multi-part one lasts as long as that. */
function wholeVideo(view: ViewData): Song {
  const song = videoToSong(view);
  const first = view.pages[0];
  return view.pages.length > 1 && first ? { ...song, duration: first.duration } : song;
}
