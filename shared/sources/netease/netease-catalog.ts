/**
 * The `music_a` catalog (NetEase Cloud Music): search, a song, a playlist (every track), an album and
 * personal FM, all through weapi.
 *
 * Endpoints and payloads from Binaryify/NeteaseCloudMusicApi: module/cloudsearch.js
 * (`/weapi/cloudsearch/get/web`, `s`/`type`/`limit`/`offset`), module/song_detail.js
 * (`/weapi/v3/song/detail`, `c` + `ids`), module/playlist_detail.js and module/playlist_track_all.js
 * (`/weapi/v6/playlist/detail` with `n`/`s`, then song detail for the `trackIds` not in `tracks`),
 * module/album.js (`/weapi/v1/album/{id}`) and module/personal_fm.js (`/weapi/v1/radio/get`).
 */
import type { Song } from '../../domain/schemas';
import { ok, type Result } from '../../result';
import type { SongCatalog, SongList } from '../song-catalog';
import type { NeteaseClient } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import {
  AlbumSchema,
  PlaylistDetailSchema,
  RadioSchema,
  SearchSchema,
  SongDetailSchema,
} from './netease-schemas';
import { neteaseId, tracksToSongs, trackToSong } from './netease-tracks';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
/** Song details asked for in one request when a playlist's `tracks` stop short of its `trackIds`. */
const DETAIL_BATCH = 500;
const SONG_SEARCH = 1;

export class NeteaseCatalog implements SongCatalog {
  constructor(private readonly client: NeteaseClient) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    const answer = await this.client.call(
      '/weapi/cloudsearch/get/web',
      { s: query, type: SONG_SEARCH, limit, offset },
      SearchSchema,
    );
    return answer.ok ? ok(answer.value.result.songs.slice(0, limit).map((t) => trackToSong(t))) : answer;
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const songId = neteaseId(id);
    if (songId === undefined) return ok(undefined);
    const details = await this.details([songId]);
    return details.ok ? ok(details.value.find((s) => s.id === String(songId))) : details;
  }

  /** Every track, in playlist order, including those NetEase marks unplayable (they come back `vip`). */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const playlistId = neteaseId(id);
    if (playlistId === undefined) return ok(undefined);
    const answer = await this.client.find(
      '/weapi/v6/playlist/detail',
      { id: playlistId, n: 100_000, s: 8 },
      PlaylistDetailSchema,
    );
    if (!answer.ok) return answer;
    if (!answer.value) return ok(undefined);
    const { playlist, privileges } = answer.value;
    // Older answers may lack `trackIds`; then `tracks` is the whole list.
    const order = playlist.trackIds.length > 0 ? playlist.trackIds : playlist.tracks;
    const ids = order.slice(0, COLLECTION_LIMIT).map((t) => t.id);
    const listed = new Set(playlist.tracks.map((t) => t.id));
    const fetched = await this.details(ids.filter((trackId) => !listed.has(trackId)));
    if (!fetched.ok) return fetched;
    const byId = new Map(
      [...tracksToSongs(playlist.tracks, privileges), ...fetched.value].map((s) => [s.id, s]),
    );
    return ok({ songs: ids.flatMap((trackId) => byId.get(String(trackId)) ?? []) });
  }

  async album(id: string): Promise<Result<SongList | undefined>> {
    const albumId = neteaseId(id);
    if (albumId === undefined) return ok(undefined);
    const answer = await this.client.find(`/weapi/v1/album/${albumId}`, {}, AlbumSchema);
    if (!answer.ok) return answer;
    const songs = answer.value?.songs ?? [];
    return ok(songs.length === 0 ? undefined : { songs: songs.map((t) => trackToSong(t)) });
  }

  /** SPEC Player rule 8: the linked personal account when there is one, else the shared login. */
  async personalFm(credential?: string): Promise<Result<Song[]>> {
    const personal = credential === undefined ? undefined : parseNeteaseCookie(credential);
    const answer = await this.client.call('/weapi/v1/radio/get', {}, RadioSchema, personal);
    return answer.ok ? ok(answer.value.data.map((t) => trackToSong(t))) : answer;
  }

  /** Songs by id, batched; ids NetEase does not know are left out. */
  private async details(ids: readonly number[]): Promise<Result<Song[]>> {
    const songs: Song[] = [];
    for (let at = 0; at < ids.length; at += DETAIL_BATCH) {
      const batch = ids.slice(at, at + DETAIL_BATCH);
      const answer = await this.client.call(
        '/weapi/v3/song/detail',
        { c: JSON.stringify(batch.map((id) => ({ id }))), ids: JSON.stringify(batch) },
        SongDetailSchema,
      );
      if (!answer.ok) return answer;
      songs.push(...tracksToSongs(answer.value.songs, answer.value.privileges));
    }
    return ok(songs);
  }
}
