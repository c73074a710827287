/**
 * The `streaming_a` catalog (Spotify): metadata only, through the Web API as the connected account.
 * Songs, albums and playlists are found with `/search`, a song with `/tracks/{id}`, an album's and a
 * playlist's songs page by page, the account's own playlists with `/me/playlists` and who is logged
 * in with `/me`. `market=from_token` makes Spotify answer for the account's country (and relink a
 * track to the copy playable there). Without a login every call is the readable "not logged in".
 *
 * Endpoints, parameters and limits (50 per search or album page, 100 per playlist page) from
 * Spotify's Web API reference: Search, Get Track, Get Album, Get Album Tracks, Get Playlist, Get
 * Playlist Items, Get Current User's Playlists, Get Current User's Profile.
 */
import type { z } from 'zod';
import type { Album, Playlist, PlaylistDetail, Song } from '../../domain/schemas';
import { ok, type Result } from '../../result';
import { accountStatusOf } from '../account-status';
import type { AccountStatus, SongCatalog, SongList } from '../song-catalog';
import type { SpotifyClient, SpotifyQuery } from './spotify-client';
import { spotifyId } from './spotify-ids';
import {
  albumToAlbum,
  albumTrackToSong,
  playlistToDetail,
  playlistToPlaylist,
  trackToSong,
} from './spotify-items';
import {
  AlbumSchema,
  AlbumTracksPageSchema,
  PlaylistSchema,
  PlaylistsPageSchema,
  PlaylistTracksPageSchema,
  ProfileSchema,
  SearchAnswerSchema,
  type Track,
  TrackSchema,
} from './spotify-schemas';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
/** The account's playlists listed at most. */
export const USER_PLAYLISTS_LIMIT = 200;
const SEARCH_PAGE = 50;
const ALBUM_PAGE = 50;
const PLAYLIST_PAGE = 100;
const MARKET = { market: 'from_token' } as const;

type SearchType = 'track' | 'album' | 'playlist';

interface Page<T> {
  items: T[];
  next?: string | null | undefined;
  total?: number | undefined;
}

const isTrack = (item: unknown): item is Track => TrackSchema.safeParse(item).success;

export class SpotifyCatalog implements SongCatalog {
  constructor(private readonly client: SpotifyClient) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    const found = await this.searchFor('track', query, limit, offset);
    return found.ok ? ok((found.value.tracks?.items ?? []).map(trackToSong)) : found;
  }

  async searchAlbums(query: string, limit: number, offset = 0): Promise<Result<Album[]>> {
    const found = await this.searchFor('album', query, limit, offset);
    return found.ok ? ok((found.value.albums?.items ?? []).map(albumToAlbum)) : found;
  }

  async searchPlaylists(query: string, limit: number, offset = 0): Promise<Result<Playlist[]>> {
    const found = await this.searchFor('playlist', query, limit, offset);
    if (!found.ok) return found;
    const playlists = found.value.playlists?.items ?? [];
    return ok(playlists.flatMap((p) => (p ? [playlistToPlaylist(p)] : [])));
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const trackId = spotifyId(id, 'track');
    if (!trackId) return ok(undefined);
    const track = await this.client.find(`/tracks/${trackId}`, MARKET, TrackSchema);
    return track.ok ? ok(track.value && trackToSong(track.value)) : track;
  }

  async album(id: string): Promise<Result<SongList | undefined>> {
    const albumId = spotifyId(id, 'album');
    if (!albumId) return ok(undefined);
    const album = await this.client.find(`/albums/${albumId}`, MARKET, AlbumSchema);
    if (!album.ok) return album;
    if (!album.value) return ok(undefined);
    const { tracks, ...info } = album.value;
    const pageQuery = { ...MARKET, limit: ALBUM_PAGE };
    const rest = await this.pages(`/albums/${albumId}/tracks`, pageQuery, tracks, AlbumTracksPageSchema);
    return rest.ok ? ok({ songs: rest.value.map((track) => albumTrackToSong(track, info)) }) : rest;
  }

  /** A playlist's songs in its order; removed tracks, episodes and local files are left out and counted. */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const playlistId = spotifyId(id, 'playlist');
    if (!playlistId) return ok(undefined);
    const path = `/playlists/${playlistId}/tracks`;
    const pageQuery = { ...MARKET, limit: PLAYLIST_PAGE };
    const first = await this.client.find(path, pageQuery, PlaylistTracksPageSchema);
    if (!first.ok) return first;
    if (!first.value) return ok(undefined);
    const entries = await this.pages(path, pageQuery, first.value, PlaylistTracksPageSchema);
    if (!entries.ok) return entries;
    const songs = entries.value.flatMap((entry) =>
      !entry.is_local && isTrack(entry.track) ? [trackToSong(entry.track)] : [],
    );
    return ok({ songs, ...(songs.length < entries.value.length && { totalCount: entries.value.length }) });
  }

  async playlistDetail(id: string): Promise<Result<PlaylistDetail | undefined>> {
    const playlistId = spotifyId(id, 'playlist');
    if (!playlistId) return ok(undefined);
    const fields = { fields: 'id,name,description,images,tracks.total' };
    const playlist = await this.client.find(`/playlists/${playlistId}`, fields, PlaylistSchema);
    return playlist.ok ? ok(playlist.value && playlistToDetail(playlist.value)) : playlist;
  }

  async userPlaylists(): Promise<Result<Playlist[]>> {
    const pageQuery = { limit: SEARCH_PAGE };
    const first = await this.client.get('/me/playlists', pageQuery, PlaylistsPageSchema);
    if (!first.ok) return first;
    const all = await this.pages(
      '/me/playlists',
      pageQuery,
      first.value,
      PlaylistsPageSchema,
      USER_PLAYLISTS_LIMIT,
    );
    return all.ok ? ok(all.value.flatMap((p) => (p ? [playlistToPlaylist(p)] : []))) : all;
  }

  async accountStatus(): Promise<Result<AccountStatus>> {
    const settings = await this.client.configured();
    if (!settings.ok) return ok({ loggedIn: false });
    return accountStatusOf(await this.client.hasLogin(), async () => {
      const profile = await this.client.get('/me', {}, ProfileSchema);
      if (!profile.ok) return profile;
      const { display_name, id, images } = profile.value;
      return ok({ nickname: display_name || id, avatarUrl: images?.[0]?.url ?? '' });
    });
  }

  private searchFor(type: SearchType, query: string, limit: number, offset: number) {
    const page = { q: query, type, limit: Math.min(Math.max(limit, 1), SEARCH_PAGE), offset, ...MARKET };
    return this.client.get('/search', page, SearchAnswerSchema);
  }

  /** The items of `first` and of the pages after it (asked with `query` plus the page), up to `cap`. */
  private async pages<T>(
    path: string,
    query: SpotifyQuery,
    first: Page<T>,
    schema: z.ZodType<Page<T>>,
    cap = COLLECTION_LIMIT,
  ): Promise<Result<T[]>> {
    const items = [...first.items];
    let more = Boolean(first.next);
    while (more && items.length < cap) {
      const page = await this.client.get(path, { ...query, offset: items.length }, schema);
      if (!page.ok) return page;
      items.push(...page.value.items);
      more = Boolean(page.value.next) && page.value.items.length > 0;
    }
    return ok(items.slice(0, cap));
  }
}
