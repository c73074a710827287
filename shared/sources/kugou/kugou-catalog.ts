/**
 * The `music_c` catalog (Kugou Music): search (songs, albums, playlists), a song by its hash (see
 * kugou-tracks.ts for why the hash is the id), a playlist by its `global_collection_id` (songs or
 * detail), an album by its album id, lyrics, recommended playlists, personal FM (also what follows a
 * song that played, for autoplay) and who the login is.
 *
 * Requests from MakcRe/KuGouMusicApi: module/search.js (`/v3/search/song`, `/v1/search/album`,
 * `/v1/search/special` with `keyword`, `page`, `pagesize`, `platform=AndroidFilter`, router
 * `complexsearch.kugou.com`), module/playlist_detail.js (`/v3/get_list_info`, router
 * `pubsongs.kugou.com`), module/playlist_track_all.js (`/pubsongs/v2/get_other_list_file_nofilt` with
 * `global_collection_id`, `begin_idx`, `pagesize`), module/album_songs.js (`/v1/album_audio/lite`,
 * router `openapi.kugou.com`, `kg-tid: 255`), module/top_playlist.js (`/v2/special_recommend`, router
 * `specialrec.service.kugou.com`) and module/personal_fm.js (`/v2/personal_recommend`, router
 * `persnfm.service.kugou.com`; the song that played as `hash`, with `is_overplay`, as its documentation
 * lists them); page size 300 for playlists as MoeKoeMusic/MoeKoeMusic reads them.
 */
import type { z } from 'zod';
import type { Album, Playlist, PlaylistDetail, Song } from '../../domain/schemas';
import { err, ok, type Result } from '../../result';
import { accountStatusOf } from '../account-status';
import type { AccountStatus, SongCatalog, SongList } from '../song-catalog';
import { needsLogin, readAccount } from './kugou-account';
import { GATEWAY_ORIGIN, type KugouClient } from './kugou-client';
import { type KugouLogin, parseKugouCookie } from './kugou-login';
import { fetchLyrics, type LyricFormat } from './kugou-lyrics';
import { fetchPrivilege } from './kugou-privilege';
import {
  AlbumSearchDataSchema,
  AlbumSongsDataSchema,
  PersonalFmDataSchema,
  PlaylistInfoDataSchema,
  PlaylistSearchDataSchema,
  PlaylistSongsDataSchema,
  SongSearchDataSchema,
  SpecialRecommendDataSchema,
} from './kugou-schemas';
import { APP_ID, CLIENT_VERSION, paramsKey } from './kugou-signing';
import {
  albumSongToSong,
  coverUrl,
  fmSongToSong,
  hitToSong,
  playlistSongToSong,
  privilegeToSong,
} from './kugou-tracks';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
const PLAYLIST_PAGE = 300;
/** Kugou's search paths per kind (`special` is its word for playlist). */
const SEARCH_PATH = { song: '/v3/search/song', album: '/v1/search/album', special: '/v1/search/special' };
/** A fixed client mark the FM request carries, as the app sends it. */
const FM_FAKE_MARK = 'ca981cfc583a4c37f28d2d49000013c16a0a';

export class KugouCatalog implements SongCatalog {
  /** `lyricFormat`: `krc` (word-timed, decoded to LRC) or `lrc` (Kugou's plain line-timed text). */
  constructor(
    private readonly client: KugouClient,
    private readonly lyricFormat: LyricFormat = 'krc',
  ) {}

  search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    return this.searchFor('song', query, limit, offset, SongSearchDataSchema, (data) =>
      data.lists.map(hitToSong),
    );
  }

  searchAlbums(query: string, limit: number, offset = 0): Promise<Result<Album[]>> {
    return this.searchFor('album', query, limit, offset, AlbumSearchDataSchema, (data) =>
      data.lists.map(
        (hit): Album => ({
          id: hit.albumid,
          name: hit.albumname,
          artist: hit.singers.length > 0 ? hit.singers.map((s) => s.name).join(' / ') : hit.singer,
          coverUrl: coverUrl(hit.img),
          songCount: hit.songcount,
          platform: 'music_c',
        }),
      ),
    );
  }

  searchPlaylists(query: string, limit: number, offset = 0): Promise<Result<Playlist[]>> {
    return this.searchFor('special', query, limit, offset, PlaylistSearchDataSchema, (data) =>
      data.lists.map((hit) =>
        toPlaylist({ id: hit.gid, name: hit.specialname, coverUrl: hit.img, songCount: hit.song_count }),
      ),
    );
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const item = await fetchPrivilege(this.client, id);
    return item.ok ? ok(item.value && privilegeToSong(item.value)) : item;
  }

  /** The playlist's songs, page by page; songs without a file (no hash) are left out and counted. */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const detail = await this.playlistDetail(id);
    if (!detail.ok) return detail;
    if (!detail.value) return ok(undefined);
    const listed: z.output<typeof PlaylistSongsDataSchema>['songs'] = [];
    for (let begin = 0; begin < COLLECTION_LIMIT; begin += PLAYLIST_PAGE) {
      const page = await this.client.call(
        {
          origin: GATEWAY_ORIGIN,
          path: '/pubsongs/v2/get_other_list_file_nofilt',
          query: {
            area_code: 1,
            begin_idx: begin,
            plat: 1,
            type: 1,
            mode: 1,
            personal_switch: 1,
            extend_fields: 'abtags,hot_cmt,popularization',
            pagesize: PLAYLIST_PAGE,
            global_collection_id: id,
          },
        },
        PlaylistSongsDataSchema,
      );
      if (!page.ok) return page;
      listed.push(...page.value.songs);
      if (page.value.songs.length < PLAYLIST_PAGE) break;
    }
    const kept = listed.slice(0, COLLECTION_LIMIT);
    const songs = kept.filter((song) => song.hash !== '').map(playlistSongToSong);
    return ok({ songs, ...(songs.length < kept.length && { totalCount: kept.length }) });
  }

  async playlistDetail(id: string): Promise<Result<PlaylistDetail | undefined>> {
    const login = await this.client.currentLogin();
    const answer = await this.client.call(
      {
        origin: GATEWAY_ORIGIN,
        path: '/v3/get_list_info',
        router: 'pubsongs.kugou.com',
        body: {
          data: [{ global_collection_id: id }],
          userid: login ? Number(login.userid) : 0,
          token: login?.token ?? '',
        },
      },
      PlaylistInfoDataSchema,
      login,
    );
    if (!answer.ok) return answer;
    const info = answer.value.find((entry) => entry.global_collection_id === id);
    return ok(
      info && {
        id: info.global_collection_id,
        name: info.name,
        description: info.intro,
        coverUrl: coverUrl(info.pic),
        songCount: info.count,
      },
    );
  }

  async album(id: string): Promise<Result<SongList | undefined>> {
    if (!/^\d+$/.test(id)) return ok(undefined);
    const answer = await this.client.call(
      {
        origin: GATEWAY_ORIGIN,
        path: '/v1/album_audio/lite',
        router: 'openapi.kugou.com',
        headers: { 'kg-tid': '255' },
        body: { album_id: id, is_buy: '', page: 1, pagesize: COLLECTION_LIMIT },
      },
      AlbumSongsDataSchema,
    );
    if (!answer.ok) return answer;
    const songs = answer.value.songs.filter((song) => song.audio_info.hash !== '').map(albumSongToSong);
    return ok(songs.length === 0 ? undefined : { songs });
  }

  lyrics(id: string): Promise<Result<string | undefined>> {
    return fetchLyrics(this.client, id, this.lyricFormat);
  }

  /** The playlist square's recommendations (for the login's taste when one is stored). */
  async recommendedPlaylists(limit: number): Promise<Result<Playlist[]>> {
    const who = await this.client.sender();
    const login = await this.client.currentLogin();
    const clienttime = Math.floor(Date.now() / 1000);
    const answer = await this.client.call(
      {
        origin: GATEWAY_ORIGIN,
        path: '/v2/special_recommend',
        router: 'specialrec.service.kugou.com',
        body: {
          appid: APP_ID,
          mid: who.mid,
          clientver: CLIENT_VERSION,
          platform: 'android',
          clienttime: String(clienttime),
          userid: login ? Number(login.userid) : 0,
          module_id: 1,
          page: 1,
          pagesize: limit,
          key: paramsKey(clienttime),
          special_recommend: {
            withtag: 1,
            withsong: 1,
            sort: 1,
            ugc: 1,
            is_selected: 0,
            withrecommend: 1,
            area_code: 1,
            categoryid: 0,
          },
          req_multi: 1,
          retrun_min: 5,
          return_special_falg: 1,
        },
      },
      SpecialRecommendDataSchema,
      who,
    );
    if (!answer.ok) return answer;
    return ok(
      answer.value.special_list.slice(0, limit).map((special) =>
        toPlaylist({
          id: special.global_collection_id,
          name: special.specialname,
          coverUrl: special.flexible_cover,
          songCount: special.songcount,
        }),
      ),
    );
  }

  /** Kugou's personal FM ("guess you like"): the linked personal account when there is one, else the shared login. */
  async personalFm(credential?: string): Promise<Result<Song[]>> {
    const login = credential === undefined ? await this.client.currentLogin() : parseKugouCookie(credential);
    if (!login) return err(needsLogin('personal FM'));
    return this.fmBatch(login);
  }

  /**
   * Kugou has no similar-songs list keyed by a song's hash; its personal FM takes the song that just
   * played instead (its `hash`, played through) and, with the pool that picks by likeness of taste
   * (`song_pool_id` 0, "Alpha"), answers a batch that follows on from it. The FM needs a login.
   */
  async relatedSongs(song: Song, limit: number): Promise<Result<Song[]>> {
    const login = await this.client.currentLogin();
    if (!login) return err(needsLogin('songs like the one that played'));
    const batch = await this.fmBatch(login, { hash: song.id, is_overplay: 1 });
    if (!batch.ok) return batch;
    const seed = song.id.toUpperCase();
    return ok(batch.value.filter((s) => s.id !== seed).slice(0, limit));
  }

  /** One batch of the account's personal FM, told which song just played when there is one. */
  private async fmBatch(
    login: KugouLogin,
    played?: { hash: string; is_overplay: number },
  ): Promise<Result<Song[]>> {
    const clienttime = Date.now();
    const answer = await this.client.call(
      {
        origin: GATEWAY_ORIGIN,
        path: '/v2/personal_recommend',
        router: 'persnfm.service.kugou.com',
        body: {
          appid: APP_ID,
          clienttime,
          mid: login.mid,
          action: 'play',
          recommend_source_locked: 0,
          song_pool_id: 0,
          callerid: 0,
          m_type: 1,
          platform: 'ios',
          area_code: 1,
          remain_songcnt: 0,
          clientver: CLIENT_VERSION,
          is_overplay: 0,
          mode: 'normal',
          fakem: FM_FAKE_MARK,
          key: paramsKey(clienttime),
          userid: Number(login.userid),
          kguid: Number(login.userid),
          token: login.token,
          ...played,
        },
      },
      PersonalFmDataSchema,
      login,
    );
    return answer.ok ? ok(answer.value.song_list.map(fmSongToSong)) : answer;
  }

  async accountStatus(): Promise<Result<AccountStatus>> {
    const login = await this.client.currentLogin();
    return accountStatusOf(login, (account) => readAccount(this.client, account));
  }

  /** One search kind; an offset that is not a whole number of pages is served from a larger first page. */
  private async searchFor<T extends z.ZodType, R>(
    kind: keyof typeof SEARCH_PATH,
    query: string,
    limit: number,
    offset: number,
    schema: T,
    hits: (data: z.output<T>) => R[],
  ): Promise<Result<R[]>> {
    const aligned = offset % limit === 0;
    const answer = await this.client.call(
      {
        origin: GATEWAY_ORIGIN,
        path: SEARCH_PATH[kind],
        router: 'complexsearch.kugou.com',
        query: {
          albumhide: 0,
          iscorrection: 1,
          keyword: query,
          nocollect: 0,
          page: aligned ? offset / limit + 1 : 1,
          pagesize: aligned ? limit : offset + limit,
          platform: 'AndroidFilter',
        },
      },
      schema,
    );
    if (!answer.ok) return answer;
    const found = hits(answer.value);
    return ok((aligned ? found : found.slice(offset)).slice(0, limit));
  }
}

const toPlaylist = (fields: Omit<Playlist, 'platform'>): Playlist => ({
  ...fields,
  coverUrl: coverUrl(fields.coverUrl),
  platform: 'music_c',
});
