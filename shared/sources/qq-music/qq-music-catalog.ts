/**
 * The `music_b` catalog (QQ Music), all through `musicu.fcg`: search (songs, albums, playlists), a
 * song by its `songmid`, a playlist by its `disstid` (songs or detail), an album by its `albummid`,
 * lyrics, recommended playlists, songs like a song (autoplay), and the login's own pages (daily
 * songs, the radio, its playlists, who it is).
 *
 * Module/method/param names from L-1124/QQMusicApi (qqmusic_api/modules/search.py `search_by_type`:
 * `music.search.SearchCgiService`/`DoSearchForQQMusicMobile` with `searchid`, `search_type` 0 song,
 * 2 album, 3 playlist, `highlight`, `grp`, the empty selectors; utils/common.py `get_searchID`;
 * modules/album.py `get_song`: `music.musichallAlbum.AlbumSongList`/`GetAlbumSongList`;
 * modules/lyric.py `get_lyric`: `music.musichallSong.PlayLyricInfo`/`GetPlayLyricInfo` by `songMid`
 * with `crypt` 1, the `*_t` stamps, `type` and the client's `ct`/`cv`; modules/song.py
 * `get_similar_song`: `music.recommend.TrackRelationServer`/`GetSimilarSongs` by the numeric `songid`,
 * answering `vecSong`; modules/songlist.py
 * `get_detail`: `music.srfDissInfo.DissInfo`/`CgiGetDiss`; modules/recommend.py:
 * `music.playlist.PlaylistSquare`/`GetRecommendFeed` with `From`/`Size`,
 * `music.recommend.RecommendFeed`/`get_recommend_feed`, `music.radioProxy.MbTrackRadioSvr`/
 * `get_radio_track` with radio id 99; modules/user.py: `music.musicasset.PlaylistBaseRead`/
 * `GetPlaylistByUin`, `music.musicasset.PlaylistFavRead`/`CgiGetPlaylistFavInfo` with `offset`/`size`)
 * and jsososo/QQMusicApi (routes/recommend.js `/daily`: the daily picks are a playlist of their own).
 */
import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import type { Album, Playlist, PlaylistDetail, Song } from '../../domain/schemas';
import { err, ok, type Result } from '../../result';
import { accountStatusOf } from '../account-status';
import type { AccountStatus, SongCatalog, SongList } from '../song-catalog';
import type { MusicuClient } from './musicu-client';
import { MOBILE_QUERY_VERSION } from './qq-mobile-client';
import { loggedInAccount, needsLogin, readAccount } from './qq-music-account';
import { parseQqCookie, type QqLogin } from './qq-music-login';
import { decryptedLrc } from './qq-music-lyrics';
import {
  AlbumSearchDataSchema,
  AlbumSongListDataSchema,
  CollectedPlaylistsDataSchema,
  CreatedPlaylistsDataSchema,
  DissInfoDataSchema,
  HomeFeedDataSchema,
  LyricDataSchema,
  PlaylistSearchDataSchema,
  RadioTracksDataSchema,
  RecommendFeedDataSchema,
  SearchDataSchema,
  SimilarSongsDataSchema,
} from './qq-music-schemas';
import { coverUrl, isPlayable, trackToSong } from './qq-music-tracks';
import { fetchTrack } from './track-info';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
/** SPEC limit: the most collected playlists read for the account's playlists, and the page size. */
export const COLLECTED_LIMIT = 300;
const COLLECTED_PAGE = 50;
const SEARCH_TYPE = { song: 0, album: 2, playlist: 3 } as const;
/** The home-feed card of the account's daily picks ("30 songs a day"). */
const DAILY_CARD_TITLE = '每日30首';
/** The "guess you like" radio: QQ Music's personal FM. */
const PERSONAL_RADIO = 99;

export class QqMusicCatalog implements SongCatalog {
  constructor(private readonly client: MusicuClient) {}

  search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    return this.searchFor('song', query, limit, offset, SearchDataSchema, (data) =>
      data.body.item_song.map(trackToSong),
    );
  }

  searchAlbums(query: string, limit: number, offset = 0): Promise<Result<Album[]>> {
    return this.searchFor('album', query, limit, offset, AlbumSearchDataSchema, (data) =>
      data.body.item_album.map(
        (hit): Album => ({
          id: hit.mid,
          name: hit.name,
          artist: hit.singer_list.length > 0 ? hit.singer_list.map((s) => s.name).join(' / ') : hit.singer,
          coverUrl: hit.pic || coverUrl(hit.mid),
          songCount: hit.song_count,
          platform: 'music_b',
        }),
      ),
    );
  }

  searchPlaylists(query: string, limit: number, offset = 0): Promise<Result<Playlist[]>> {
    return this.searchFor('playlist', query, limit, offset, PlaylistSearchDataSchema, (data) =>
      data.body.item_songlist.map((hit) =>
        toPlaylist({ id: hit.id, name: hit.title, coverUrl: hit.picurl, songCount: hit.songnum }),
      ),
    );
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const track = await fetchTrack(this.client, id);
    return track.ok ? ok(track.value && trackToSong(track.value)) : track;
  }

  /**
   * Every song of the playlist (those that cannot play marked `vip`), and apart from them the ones
   * this login can play: SPEC Player rule 7 loads only those when the playlist is played.
   */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const login = await this.client.currentLogin();
    const answer = await this.dissInfo(id, COLLECTION_LIMIT, login);
    if (!answer.ok) return answer;
    if (!answer.value) return ok(undefined);
    const { songlist } = answer.value;
    const playable = songlist.filter((track) => isPlayable(track, login !== undefined));
    return ok({ songs: songlist.map(trackToSong), playable: playable.map(trackToSong) });
  }

  async playlistDetail(id: string): Promise<Result<PlaylistDetail | undefined>> {
    // The detail is in `dirinfo`; one song is the least the request may ask for.
    const answer = await this.dissInfo(id, 1);
    if (!answer.ok) return answer;
    if (!answer.value) return ok(undefined);
    const { dirinfo } = answer.value;
    return ok({
      id: String(dirinfo.id),
      name: dirinfo.title,
      description: dirinfo.desc,
      coverUrl: dirinfo.picurl,
      songCount: dirinfo.songnum,
    });
  }

  async album(id: string): Promise<Result<SongList | undefined>> {
    const answer = await this.client.call(
      {
        module: 'music.musichallAlbum.AlbumSongList',
        method: 'GetAlbumSongList',
        param: { begin: 0, num: COLLECTION_LIMIT, albumMid: id },
      },
      AlbumSongListDataSchema,
    );
    if (!answer.ok) return answer;
    const { songList } = answer.value;
    return ok(
      songList.length === 0 ? undefined : { songs: songList.map((entry) => trackToSong(entry.songInfo)) },
    );
  }

  /** Original lines, each followed by its translation at the same time; undefined for none. */
  async lyrics(id: string): Promise<Result<string | undefined>> {
    const answer = await this.client.call(
      {
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
          ...MOBILE_QUERY_VERSION,
          songMid: id,
        },
      },
      LyricDataSchema,
    );
    return answer.ok ? decryptedLrc(answer.value.lyric, answer.value.trans) : answer;
  }

  /** The playlist square's recommendations (for the login's taste when one is stored). */
  async recommendedPlaylists(limit: number): Promise<Result<Playlist[]>> {
    const answer = await this.client.call(
      {
        module: 'music.playlist.PlaylistSquare',
        method: 'GetRecommendFeed',
        param: { From: 0, Size: limit },
      },
      RecommendFeedDataSchema,
    );
    if (!answer.ok) return answer;
    return ok(
      answer.value.List.slice(0, limit).map(({ Playlist: { basic } }) =>
        toPlaylist({
          id: String(basic.tid),
          name: basic.title,
          coverUrl: basic.cover.default_url,
          songCount: basic.song_cnt,
        }),
      ),
    );
  }

  /** The login's daily picks: a playlist the home feed links to, browsed like any playlist (every song). */
  async dailySongs(): Promise<Result<Song[]>> {
    const login = await this.client.currentLogin();
    if (!login) return err(needsLogin('the daily recommendation'));
    const feed = await this.client.call(
      {
        module: 'music.recommend.RecommendFeed',
        method: 'get_recommend_feed',
        param: { direction: 0, page: 1, s_num: 0 },
      },
      HomeFeedDataSchema,
      login,
    );
    if (!feed.ok) return feed;
    const daily = feed.value.v_shelf
      .flatMap((shelf) => shelf.v_niche.flatMap((niche) => niche.v_card))
      .find((card) => card.title === DAILY_CARD_TITLE);
    if (!daily) return err('QQ Music offered no daily recommendation for this login');
    const songs = await this.playlist(daily.id);
    if (!songs.ok) return songs;
    return songs.value ? ok(songs.value.songs) : err('QQ Music could not find the daily recommendation');
  }

  /** SPEC Player rule 8: the linked personal account when there is one, else the shared login. */
  async personalFm(credential?: string): Promise<Result<Song[]>> {
    const login = credential === undefined ? await this.client.currentLogin() : parseQqCookie(credential);
    if (!login) return err(needsLogin('personal FM'));
    const answer = await this.client.call(
      {
        module: 'music.radioProxy.MbTrackRadioSvr',
        method: 'get_radio_track',
        param: { id: PERSONAL_RADIO, num: 5, from: 0, scene: 0, song_ids: [] },
      },
      RadioTracksDataSchema,
      login,
    );
    return answer.ok ? ok(answer.value.tracks.map(trackToSong)) : answer;
  }

  /**
   * QQ Music's similar songs. They are asked for by the numeric song id, which a Song (named by its
   * `songmid`) does not carry: the seed's track is looked up first. A seed QQ Music does not know has
   * no similar songs.
   */
  async relatedSongs(song: Song, limit: number): Promise<Result<Song[]>> {
    const seed = await fetchTrack(this.client, song.id);
    if (!seed.ok) return seed;
    if (seed.value?.id === undefined) return ok([]);
    const answer = await this.client.call(
      {
        module: 'music.recommend.TrackRelationServer',
        method: 'GetSimilarSongs',
        param: { songid: seed.value.id },
      },
      SimilarSongsDataSchema,
    );
    if (!answer.ok) return answer;
    const related = answer.value.vecSong.map(({ track }) => track).filter((t) => t.mid !== song.id);
    return ok(related.slice(0, limit).map(trackToSong));
  }

  /** Created playlists first, then the collected ones (SPEC: at most 300, read page by page). */
  async userPlaylists(): Promise<Result<Playlist[]>> {
    const me = await loggedInAccount(this.client, "reading the account's playlists");
    if (!me.ok) return me;
    const { login, account } = me.value;
    const created = await this.client.call(
      { module: 'music.musicasset.PlaylistBaseRead', method: 'GetPlaylistByUin', param: { uin: login.uin } },
      CreatedPlaylistsDataSchema,
      login,
    );
    if (!created.ok) return created;
    const collected = await this.collectedPlaylists(login, account.encryptedUin);
    if (!collected.ok) return collected;
    const own = created.value.v_playlist.map((p) =>
      toPlaylist({ id: String(p.tid), name: p.dirName, coverUrl: p.picUrl, songCount: p.songNum }),
    );
    return ok([...own, ...collected.value]);
  }

  /** A cookie that no longer logs in is `loggedIn: false`, like no cookie at all. */
  async accountStatus(): Promise<Result<AccountStatus>> {
    return accountStatusOf(await this.client.currentLogin(), (login) => readAccount(this.client, login));
  }

  /**
   * One page of the phone app's search by kind. The API pages by page number; an offset that is not a page
   * boundary reads from the start and drops the first `offset` hits.
   */
  private async searchFor<S extends z.ZodType, Hit>(
    kind: keyof typeof SEARCH_TYPE,
    query: string,
    limit: number,
    offset: number,
    schema: S,
    hits: (data: z.output<S>) => Hit[],
  ): Promise<Result<Hit[]>> {
    const aligned = offset % limit === 0;
    const answer = await this.client.call(
      {
        module: 'music.search.SearchCgiService',
        method: 'DoSearchForQQMusicMobile',
        param: {
          searchid: searchId(),
          query,
          search_type: SEARCH_TYPE[kind],
          num_per_page: aligned ? limit : offset + limit,
          page_num: aligned ? offset / limit + 1 : 1,
          highlight: 1,
          grp: 1,
          selectors: {},
          vec_selectors: [],
        },
      },
      schema,
    );
    if (!answer.ok) return answer;
    const found = hits(answer.value);
    return ok((aligned ? found : found.slice(offset)).slice(0, limit));
  }

  /** A playlist's `CgiGetDiss` answer with up to `songs` songs; undefined for an unknown id. */
  private async dissInfo(id: string, songs: number, login?: QqLogin) {
    const disstid = Number(id);
    if (!Number.isSafeInteger(disstid) || disstid <= 0) return ok(undefined);
    const answer = await this.client.call(
      {
        module: 'music.srfDissInfo.DissInfo',
        method: 'CgiGetDiss',
        param: {
          disstid,
          dirid: 0,
          tag: 1,
          song_begin: 0,
          song_num: songs,
          userinfo: 1,
          orderlist: 1,
          onlysonglist: 0,
        },
      },
      DissInfoDataSchema,
      login,
    );
    if (!answer.ok) return answer;
    const { dirinfo, songlist } = answer.value;
    // An unknown playlist answers with an empty `dirinfo` (id 0).
    return ok(dirinfo?.id ? { dirinfo, songlist } : undefined);
  }

  /** The collected playlists, page by page, until QQ Music has no more or the SPEC limit is reached. */
  private async collectedPlaylists(login: QqLogin, encryptedUin: string): Promise<Result<Playlist[]>> {
    const playlists: Playlist[] = [];
    for (let offset = 0; offset < COLLECTED_LIMIT; offset += COLLECTED_PAGE) {
      const page = await this.client.call(
        {
          module: 'music.musicasset.PlaylistFavRead',
          method: 'CgiGetPlaylistFavInfo',
          param: { uin: encryptedUin, offset, size: Math.min(COLLECTED_PAGE, COLLECTED_LIMIT - offset) },
        },
        CollectedPlaylistsDataSchema,
        login,
      );
      if (!page.ok) return page;
      const { v_list, hasmore } = page.value;
      playlists.push(
        ...v_list.map((p) =>
          toPlaylist({ id: String(p.tid), name: p.name, coverUrl: p.logo, songCount: p.songnum }),
        ),
      );
      if (!hasmore || v_list.length === 0) break;
    }
    return ok(playlists.slice(0, COLLECTED_LIMIT));
  }
}

/**
 * A search session id as the phone app makes one: a random multiple of 2^54 plus a random multiple of
 * 2^32 plus the milliseconds since midnight (UTC), past 2^53, hence BigInt.
 */
function searchId(): string {
  const high = BigInt(randomInt(1, 21)) * 18014398509481984n;
  const middle = BigInt(randomInt(0, 4194305)) * 4294967296n;
  return String(high + middle + BigInt(Date.now() % 86_400_000));
}

const toPlaylist = (fields: Omit<Playlist, 'platform'>): Playlist => ({ ...fields, platform: 'music_b' });
