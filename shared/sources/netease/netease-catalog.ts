/**
 * The `music_a` catalog (NetEase Cloud Music): search (songs, albums, playlists), a song, a playlist
 * (every track, or its details), an album, lyrics, and the personal pages — recommended playlists,
 * daily songs, personal FM, the account's playlists and who the login is — and songs like a song
 * (autoplay). Each call goes in the form
 * (web `/weapi/`, desktop `/eapi/`) the reference's module sends it in.
 *
 * Endpoints, forms and payloads from NeteaseCloudMusicApiEnhanced/api-enhanced: module/cloudsearch.js
 * (`/eapi/cloudsearch/pc`, `s`/`type`/`limit`/`offset`/`total`; type 1 songs, 10 albums, 1000
 * playlists), module/song_detail.js (`/weapi/v3/song/detail`, `c`), module/playlist_detail.js and
 * module/playlist_track_all.js (`/eapi/v6/playlist/detail` with `n`/`s`, then `/eapi/v3/song/detail`
 * for the `trackIds` not in `tracks`), module/album.js (`/weapi/v1/album/{id}`), module/lyric.js
 * (`/eapi/song/lyric`, `tv`/`lv`/`rv`/`kv` -1 for every version, `_nmclfl`), module/personalized.js
 * (`/weapi/personalized/playlist`, `limit`/`total`/`n`), module/recommend_resource.js
 * (`/weapi/v1/discovery/recommend/resource`), module/recommend_songs.js
 * (`/weapi/v3/discovery/recommend/songs`), module/personal_fm.js (`/weapi/v1/radio/get`),
 * module/simi_song.js (`/weapi/v1/discovery/simiSong`, `songid`/`limit`/`offset`) and
 * module/user_playlist.js (`/weapi/user/playlist`, `uid`/`limit`/`offset`/`includeVideo`).
 */
import type { z } from 'zod';
import type { Album, Playlist, PlaylistDetail, Song } from '../../domain/schemas';
import { err, ok, type Result } from '../../result';
import { accountStatusOf } from '../account-status';
import { mergeLyrics } from '../lrc';
import type { AccountStatus, SongCatalog, SongList } from '../song-catalog';
import { needsLogin, readAccount } from './netease-account';
import { EXPIRED_LOGIN, type NeteaseClient } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import {
  AlbumSchema,
  AlbumSearchSchema,
  DailySongsSchema,
  LyricSchema,
  PersonalizedSchema,
  PlaylistDetailSchema,
  PlaylistSearchSchema,
  RadioSchema,
  RecommendResourceSchema,
  SearchSchema,
  SimilarSongsSchema,
  SongDetailSchema,
  UserPlaylistSchema,
} from './netease-schemas';
import { neteaseId, toAlbum, toPlaylist, tracksToSongs, trackToSong } from './netease-tracks';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
/** Song details asked for in one request when a playlist's `tracks` stop short of its `trackIds`. */
const DETAIL_BATCH = 500;
/** cloudsearch `type`s. */
const SEARCH_TYPE = { songs: 1, albums: 10, playlists: 1000 } as const;
/** Every version of a lyric: `-1` asks for the newest of each (translation, original, romaji, karaoke). */
const ALL_LYRIC_VERSIONS = { tv: -1, lv: -1, rv: -1, kv: -1, _nmclfl: 1 } as const;

export class NeteaseCatalog implements SongCatalog {
  constructor(private readonly client: NeteaseClient) {}

  search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    return this.cloudsearch('songs', query, limit, offset, SearchSchema, ({ result }) =>
      result.songs.map((t) => trackToSong(t)),
    );
  }

  searchAlbums(query: string, limit: number, offset = 0): Promise<Result<Album[]>> {
    return this.cloudsearch('albums', query, limit, offset, AlbumSearchSchema, ({ result }) =>
      result.albums.map(toAlbum),
    );
  }

  searchPlaylists(query: string, limit: number, offset = 0): Promise<Result<Playlist[]>> {
    return this.cloudsearch('playlists', query, limit, offset, PlaylistSearchSchema, ({ result }) =>
      result.playlists.map(toPlaylist),
    );
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const songId = neteaseId(id);
    if (songId === undefined) return ok(undefined);
    const details = await this.details([songId], '/weapi/v3/song/detail');
    return details.ok ? ok(details.value.find((s) => s.id === String(songId))) : details;
  }

  /** Every track, in playlist order, including those NetEase marks unplayable (they come back `vip`). */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const answer = await this.playlistAnswer(id);
    if (!answer.ok) return answer;
    if (!answer.value) return ok(undefined);
    const { playlist, privileges } = answer.value;
    // Older answers may lack `trackIds`; then `tracks` is the whole list.
    const order = playlist.trackIds.length > 0 ? playlist.trackIds : playlist.tracks;
    const ids = order.slice(0, COLLECTION_LIMIT).map((t) => t.id);
    const listed = new Set(playlist.tracks.map((t) => t.id));
    const fetched = await this.details(
      ids.filter((trackId) => !listed.has(trackId)),
      '/eapi/v3/song/detail',
    );
    if (!fetched.ok) return fetched;
    const byId = new Map(
      [...tracksToSongs(playlist.tracks, privileges), ...fetched.value].map((s) => [s.id, s]),
    );
    return ok({ songs: ids.flatMap((trackId) => byId.get(String(trackId)) ?? []) });
  }

  async playlistDetail(id: string): Promise<Result<PlaylistDetail | undefined>> {
    const answer = await this.playlistAnswer(id);
    if (!answer.ok) return answer;
    if (!answer.value) return ok(undefined);
    const { playlist } = answer.value;
    return ok({
      id: String(playlist.id),
      name: playlist.name,
      description: playlist.description ?? '',
      coverUrl: playlist.coverImgUrl ?? '',
      songCount: playlist.trackCount ?? playlist.trackIds.length,
    });
  }

  async album(id: string): Promise<Result<SongList | undefined>> {
    const albumId = neteaseId(id);
    if (albumId === undefined) return ok(undefined);
    const answer = await this.client.find(`/weapi/v1/album/${albumId}`, {}, AlbumSchema);
    if (!answer.ok) return answer;
    const songs = answer.value?.songs ?? [];
    return ok(songs.length === 0 ? undefined : { songs: songs.map((t) => trackToSong(t)) });
  }

  /** Original lines, each followed by its translation at the same time; undefined for none. */
  async lyrics(id: string): Promise<Result<string | undefined>> {
    const songId = neteaseId(id);
    if (songId === undefined) return ok(undefined);
    const answer = await this.client.find(
      '/eapi/song/lyric',
      { id: songId, ...ALL_LYRIC_VERSIONS },
      LyricSchema,
    );
    if (!answer.ok) return answer;
    if (!answer.value) return ok(undefined);
    const { nolyric, uncollected, lrc, tlyric } = answer.value;
    if (nolyric || uncollected) return ok(undefined);
    return ok(mergeLyrics(lrc?.lyric ?? '', tlyric?.lyric ?? ''));
  }

  /** The account's daily picks when logged in, else the playlists NetEase recommends to everyone. */
  async recommendedPlaylists(limit: number): Promise<Result<Playlist[]>> {
    const login = await this.client.currentLogin();
    const answer = login
      ? await this.client.call('/weapi/v1/discovery/recommend/resource', {}, RecommendResourceSchema, login)
      : await this.client.call(
          '/weapi/personalized/playlist',
          { limit, total: true, n: COLLECTION_LIMIT },
          PersonalizedSchema,
        );
    if (!answer.ok) return answer;
    const playlists = 'recommend' in answer.value ? answer.value.recommend : answer.value.result;
    return ok(playlists.slice(0, limit).map(toPlaylist));
  }

  async dailySongs(): Promise<Result<Song[]>> {
    const login = await this.client.currentLogin();
    if (!login) return err(needsLogin('the daily recommendation'));
    const answer = await this.client.call('/weapi/v3/discovery/recommend/songs', {}, DailySongsSchema, login);
    return answer.ok ? ok(answer.value.data.dailySongs.map((t) => trackToSong(t))) : answer;
  }

  /** SPEC Player rule 8: the linked personal account when there is one, else the shared login. */
  async personalFm(credential?: string): Promise<Result<Song[]>> {
    const personal = credential === undefined ? undefined : parseNeteaseCookie(credential);
    const answer = await this.client.call('/weapi/v1/radio/get', {}, RadioSchema, personal);
    return answer.ok ? ok(answer.value.data.map((t) => trackToSong(t))) : answer;
  }

  /**
   * NetEase's "similar songs" (the web player's 相似歌曲). One more than `limit` is asked for so the
   * seed, should NetEase list it, can be dropped without coming up short.
   */
  async relatedSongs(song: Song, limit: number): Promise<Result<Song[]>> {
    const songId = neteaseId(song.id);
    if (songId === undefined) return ok([]);
    const answer = await this.client.call(
      '/weapi/v1/discovery/simiSong',
      { songid: songId, limit: limit + 1, offset: 0 },
      SimilarSongsSchema,
    );
    if (!answer.ok) return answer;
    const related = answer.value.songs.filter((t) => t.id !== songId).map((t) => trackToSong(t));
    return ok(related.slice(0, limit));
  }

  /** Created and collected playlists alike, in NetEase's order (created first). */
  async userPlaylists(): Promise<Result<Playlist[]>> {
    const login = await this.client.currentLogin();
    if (!login) return err(needsLogin("listing the account's playlists"));
    const account = await readAccount(this.client, login);
    if (!account.ok) return account;
    if (!account.value) return err(EXPIRED_LOGIN);
    const answer = await this.client.call(
      '/weapi/user/playlist',
      { uid: account.value.uid, limit: COLLECTION_LIMIT, offset: 0, includeVideo: true },
      UserPlaylistSchema,
      login,
    );
    return answer.ok ? ok(answer.value.playlist.map(toPlaylist)) : answer;
  }

  /** A cookie that no longer logs in is `loggedIn: false`, like no cookie at all. */
  async accountStatus(): Promise<Result<AccountStatus>> {
    return accountStatusOf(await this.client.currentLogin(), (login) => readAccount(this.client, login));
  }

  /** One page of one kind of search hits, cut to `limit` (NetEase may send more). */
  private async cloudsearch<T extends z.ZodType, Hit>(
    kind: keyof typeof SEARCH_TYPE,
    query: string,
    limit: number,
    offset: number,
    schema: T,
    hits: (answer: z.output<T>) => Hit[],
  ): Promise<Result<Hit[]>> {
    const answer = await this.client.call(
      '/eapi/cloudsearch/pc',
      { s: query, type: SEARCH_TYPE[kind], limit, offset, total: true },
      schema,
    );
    return answer.ok ? ok(hits(answer.value).slice(0, limit)) : answer;
  }

  /** A playlist's detail answer (its tracks and its description), or undefined for an unknown id. */
  private playlistAnswer(id: string) {
    const playlistId = neteaseId(id);
    if (playlistId === undefined) return Promise.resolve(ok(undefined));
    return this.client.find(
      '/eapi/v6/playlist/detail',
      { id: playlistId, n: 100_000, s: 8 },
      PlaylistDetailSchema,
    );
  }

  /**
   * Songs by id, batched; ids NetEase does not know are left out. A song is looked up as the web
   * player does, a playlist's missing tracks as the desktop client does (the reference's two modules).
   */
  private async details(
    ids: readonly number[],
    path: '/weapi/v3/song/detail' | '/eapi/v3/song/detail',
  ): Promise<Result<Song[]>> {
    const songs: Song[] = [];
    for (let at = 0; at < ids.length; at += DETAIL_BATCH) {
      const batch = ids.slice(at, at + DETAIL_BATCH);
      const answer = await this.client.call(
        path,
        { c: JSON.stringify(batch.map((id) => ({ id }))) },
        SongDetailSchema,
      );
      if (!answer.ok) return answer;
      songs.push(...tracksToSongs(answer.value.songs, answer.value.privileges));
    }
    return ok(songs);
  }
}
