/**
 * The `streaming_a` catalog (Spotify): metadata only, through the Web API as the connected account.
 * Songs, albums and playlists are found with `/search`, a song with `/tracks/{id}`, an album's and a
 * playlist's songs page by page, the account's own playlists with `/me/playlists` and who is logged
 * in with `/me`. `market=from_token` makes Spotify answer for the account's country (and relink a
 * track to the copy playable there). Without a login every call is the readable "not logged in".
 *
 * Endpoints, parameters and limits from Spotify's Web API reference and its "February 2026 Web API
 * Dev Mode Changes" migration guide, which apply to every app in Development Mode (the usual app for a
 * self-hosted bot; Extended Quota Mode apps accept the same calls): Search answers at most 10 results
 * per type and page (`offset` at most 1000), so a larger request is asked page by page; a playlist's
 * entries come from `GET /playlists/{id}/items` (each under `item`), only for playlists the account
 * owns or collaborates on; a playlist's count is `items.total`; other pages hold at most 50.
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
  PlaylistItemsPageSchema,
  PlaylistSchema,
  PlaylistsPageSchema,
  ProfileSchema,
  SearchAnswerSchema,
  type Track,
  TrackSchema,
} from './spotify-schemas';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
/** The account's playlists listed at most. */
export const USER_PLAYLISTS_LIMIT = 200;
/** Search's largest page: 10 results per type since February 2026 (it was 50). */
export const SEARCH_PAGE = 10;
/** The deepest result a search may start from (Search's `offset` is at most 1000). */
const SEARCH_MAX_OFFSET = 1000;
/** The largest page of album tracks, playlist items and the account's playlists. */
const PAGE = 50;
const MARKET = { market: 'from_token' } as const;
/** Spotify answers 403 for the items of a playlist the account neither owns nor collaborates on. */
export const NOT_OWN_PLAYLIST =
  'Spotify lets the bot read the songs only of playlists the connected account owns or collaborates on ' +
  '(its rule for apps in Development Mode since March 2026): copy the songs into a playlist of that account';

type SearchType = 'track' | 'album' | 'playlist';
type SearchAnswer = z.output<typeof SearchAnswerSchema>;

interface Page<T> {
  items: T[];
  next?: string | null | undefined;
  total?: number | undefined;
}

const isTrack = (item: unknown): item is Track => TrackSchema.safeParse(item).success;

export class SpotifyCatalog implements SongCatalog {
  constructor(private readonly client: SpotifyClient) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    const found = await this.searchFor('track', (a) => a.tracks, query, limit, offset);
    return found.ok ? ok(found.value.map(trackToSong)) : found;
  }

  async searchAlbums(query: string, limit: number, offset = 0): Promise<Result<Album[]>> {
    const found = await this.searchFor('album', (a) => a.albums, query, limit, offset);
    return found.ok ? ok(found.value.map(albumToAlbum)) : found;
  }

  async searchPlaylists(query: string, limit: number, offset = 0): Promise<Result<Playlist[]>> {
    const found = await this.searchFor('playlist', (a) => a.playlists, query, limit, offset);
    return found.ok ? ok(found.value.flatMap((p) => (p ? [playlistToPlaylist(p)] : []))) : found;
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
    const pageQuery = { ...MARKET, limit: PAGE };
    const rest = await this.pages(`/albums/${albumId}/tracks`, pageQuery, tracks, AlbumTracksPageSchema);
    return rest.ok ? ok({ songs: rest.value.map((track) => albumTrackToSong(track, info)) }) : rest;
  }

  /** A playlist's songs in its order; removed tracks, episodes and local files are left out and counted. */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const playlistId = spotifyId(id, 'playlist');
    if (!playlistId) return ok(undefined);
    const path = `/playlists/${playlistId}/items`;
    const pageQuery = { ...MARKET, limit: PAGE };
    const first = await this.client.find(path, pageQuery, PlaylistItemsPageSchema, { 403: NOT_OWN_PLAYLIST });
    if (!first.ok) return first;
    if (!first.value) return ok(undefined);
    const entries = await this.pages(path, pageQuery, first.value, PlaylistItemsPageSchema);
    if (!entries.ok) return entries;
    const songs = entries.value.flatMap((entry) =>
      !entry.is_local && isTrack(entry.item) ? [trackToSong(entry.item)] : [],
    );
    return ok({ songs, ...(songs.length < entries.value.length && { totalCount: entries.value.length }) });
  }

  async playlistDetail(id: string): Promise<Result<PlaylistDetail | undefined>> {
    const playlistId = spotifyId(id, 'playlist');
    if (!playlistId) return ok(undefined);
    // A playlist the account does not own answers without `items`: its count reads as 0.
    const fields = { fields: 'id,name,description,images,items.total' };
    const playlist = await this.client.find(`/playlists/${playlistId}`, fields, PlaylistSchema);
    return playlist.ok ? ok(playlist.value && playlistToDetail(playlist.value)) : playlist;
  }

  async userPlaylists(): Promise<Result<Playlist[]>> {
    const pageQuery = { limit: PAGE };
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

  /**
   * `limit` results of one type from `offset` on, in pages of SEARCH_PAGE: the first page tells how
   * many there are, and the pages after it up to the limit (or the last result) are asked at once.
   */
  private async searchFor<T>(
    type: SearchType,
    pick: (answer: SearchAnswer) => Page<T> | undefined,
    query: string,
    limit: number,
    offset: number,
  ): Promise<Result<T[]>> {
    if (offset > SEARCH_MAX_OFFSET) return ok([]);
    const end = offset + Math.max(limit, 1);
    const page = async (at: number): Promise<Result<Page<T>>> => {
      const size = Math.min(SEARCH_PAGE, end - at);
      const answer = await this.client.get(
        '/search',
        { q: query, type, limit: size, offset: at, ...MARKET },
        SearchAnswerSchema,
      );
      return answer.ok ? ok(pick(answer.value) ?? { items: [] }) : answer;
    };
    const first = await page(offset);
    if (!first.ok) return first;
    const last = first.value.next ? Math.min(end, first.value.total ?? end) : offset;
    const starts: number[] = [];
    for (let at = offset + SEARCH_PAGE; at < last && at <= SEARCH_MAX_OFFSET; at += SEARCH_PAGE)
      starts.push(at);
    const items = [...first.value.items];
    for (const next of await Promise.all(starts.map(page))) {
      if (!next.ok) return next;
      items.push(...next.value.items);
    }
    return ok(items);
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
