/**
 * The `music_b` catalog (QQ Music): search, a song by its `songmid`, a playlist by its `disstid`
 * and an album by its `albummid`, all through `musicu.fcg`.
 *
 * Module/method/param names from public clients: L-1124/QQMusicApi (qqmusic_api/modules/search.py:
 * `music.search.SearchCgiService`/`DoSearchForQQMusicDesktop`; modules/album.py:
 * `music.musichallAlbum.AlbumSongList`/`GetAlbumSongList`) and jsososo/QQMusicApi (routes/album.js),
 * plus the web player's `music.srfDissInfo.aiDissInfo`/`uniform_get_Dissinfo` playlist request.
 */
import type { Song } from '../../domain/schemas';
import { ok, type Result } from '../../result';
import type { SongCatalog, SongList } from '../song-catalog';
import type { MusicuClient } from './musicu-client';
import { AlbumSongListDataSchema, DissInfoDataSchema, SearchDataSchema } from './qq-music-schemas';
import { isPlayable, trackToSong } from './qq-music-tracks';
import { fetchTrack } from './track-info';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
const SONG_SEARCH = 0;

export class QqMusicCatalog implements SongCatalog {
  constructor(private readonly client: MusicuClient) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    // The API pages by page number; an offset that is not a page boundary reads from the start.
    const aligned = offset % limit === 0;
    const answer = await this.client.call(
      {
        module: 'music.search.SearchCgiService',
        method: 'DoSearchForQQMusicDesktop',
        param: {
          query,
          search_type: SONG_SEARCH,
          num_per_page: aligned ? limit : offset + limit,
          page_num: aligned ? offset / limit + 1 : 1,
        },
      },
      SearchDataSchema,
    );
    if (!answer.ok) return answer;
    const tracks = answer.value.body.song.list;
    return ok((aligned ? tracks : tracks.slice(offset)).slice(0, limit).map(trackToSong));
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const track = await fetchTrack(this.client, id);
    return track.ok ? ok(track.value && trackToSong(track.value)) : track;
  }

  /** SPEC Player rule 7: a `music_b` playlist loads only its playable songs and says how many it had. */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const disstid = Number(id);
    if (!Number.isSafeInteger(disstid) || disstid <= 0) return ok(undefined);
    const login = await this.client.currentLogin();
    const answer = await this.client.call(
      {
        module: 'music.srfDissInfo.aiDissInfo',
        method: 'uniform_get_Dissinfo',
        param: {
          disstid,
          userinfo: 1,
          tag: 1,
          orderlist: 1,
          song_begin: 0,
          song_num: COLLECTION_LIMIT,
          onlysonglist: 0,
          enc_host_uin: '',
        },
      },
      DissInfoDataSchema,
      login,
    );
    if (!answer.ok) return answer;
    const { dirinfo, songlist } = answer.value;
    if (!dirinfo?.id) return ok(undefined);
    const playable = songlist.filter((track) => isPlayable(track, login !== undefined));
    return ok({ songs: playable.map(trackToSong), totalCount: songlist.length });
  }

  async album(id: string): Promise<Result<SongList | undefined>> {
    const answer = await this.client.call(
      {
        module: 'music.musichallAlbum.AlbumSongList',
        method: 'GetAlbumSongList',
        param: { albumMid: id, albumID: 0, begin: 0, num: COLLECTION_LIMIT, order: 2 },
      },
      AlbumSongListDataSchema,
    );
    if (!answer.ok) return answer;
    const { songList } = answer.value;
    return ok(
      songList.length === 0 ? undefined : { songs: songList.map((entry) => trackToSong(entry.songInfo)) },
    );
  }
}
