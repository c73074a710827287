/**
 * The `library_a` catalog (Jellyfin): songs, albums and playlists found through `/Items`, a
 * playlist's entries through `/Playlists/{id}/Items`, lyrics (Jellyfin 10.9+), an Instant Mix as
 * personal FM and as the songs like one (autoplay), the logged-in user as the account status, and
 * the library pages of the api's `library_a` routes (latest albums, most played, favourites, genres).
 *
 * Query names and values from jellyfin/jellyfin (Jellyfin.Api/Controllers/ItemsController.cs:
 * `searchTerm`, `IncludeItemTypes`, `Recursive`, `ParentId`, `Ids`, `GenreIds`, `Filters`, `SortBy`,
 * `SortOrder`, `Fields`, `StartIndex`, `Limit`; PlaylistsController.cs, InstantMixController.cs,
 * LyricsController.cs, MusicGenresController.cs, UserController.cs) and jellyfin-web's music pages.
 */
import type { Album, Playlist, PlaylistDetail, Song } from '../../domain/schemas';
import { type Phrase, say } from '../../i18n/phrases';
import { ok, type Result } from '../../result';
import type { Genre, LibraryShelves } from '../shelf-catalogs';
import type { AccountStatus, SongCatalog, SongList } from '../song-catalog';
import type { JellyfinClient } from './jellyfin-client';
import { NOT_CONFIGURED } from './jellyfin-config';
import type { JellyfinQuery } from './jellyfin-http';
import { isJellyfinId, sameJellyfinId } from './jellyfin-ids';
import { findItem } from './jellyfin-item-lookup';
import { itemToAlbum, itemToPlaylist, itemToPlaylistDetail, itemToSong } from './jellyfin-items';
import { INVALID_API_KEY, WRONG_PASSWORD } from './jellyfin-login';
import { lyricsToLrc } from './jellyfin-lyrics';
import { type Item, ItemsSchema, LyricsSchema, UserSchema } from './jellyfin-schemas';

/** The most songs one collection loads: the same cap as a loaded queue. */
export const COLLECTION_LIMIT = 1000;
/** Songs in one Instant Mix batch of personal FM. */
export const FM_BATCH = 30;

const SONGS = { IncludeItemTypes: 'Audio', Recursive: true } as const;
const ALBUMS = { IncludeItemTypes: 'MusicAlbum', Recursive: true, Fields: 'ChildCount' } as const;
// Playlists of video are left out: a bot cannot play them.
const PLAYLISTS = {
  IncludeItemTypes: 'Playlist',
  MediaTypes: 'Audio',
  Recursive: true,
  Fields: 'ChildCount',
} as const;

const isSong = (item: Item) => item.Type === 'Audio';
const itemToGenre = (_: string, item: Item): Genre => ({ id: item.Id, name: item.Name ?? '' });
const asItem = (_: string, item: Item) => item;

/**
 * Why a status is "not logged in" rather than an error, each with its phrase (the page words it in
 * the reader's language): nothing to log in with, or a refused login.
 */
const LOGGED_OUT_REASONS = new Map<string, () => Phrase>([
  [NOT_CONFIGURED, say.jellyfinNotConfigured],
  [WRONG_PASSWORD, say.jellyfinWrongPassword],
  [INVALID_API_KEY, say.jellyfinInvalidApiKey],
]);

export class JellyfinCatalog implements SongCatalog, LibraryShelves {
  constructor(private readonly client: JellyfinClient) {}

  search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    const page = { searchTerm: query, Limit: limit, StartIndex: offset };
    return this.listed('/Items', { ...SONGS, ...page }, itemToSong);
  }

  searchAlbums(query: string, limit: number, offset = 0): Promise<Result<Album[]>> {
    const page = { searchTerm: query, Limit: limit, StartIndex: offset };
    return this.listed('/Items', { ...ALBUMS, ...page }, itemToAlbum);
  }

  searchPlaylists(query: string, limit: number, offset = 0): Promise<Result<Playlist[]>> {
    const page = { searchTerm: query, Limit: limit, StartIndex: offset };
    return this.listed('/Items', { ...PLAYLISTS, ...page }, itemToPlaylist);
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const item = await findItem(this.client, id, 'Audio');
    return item.ok ? ok(item.value && itemToSong(item.value.session.serverUrl, item.value.data)) : item;
  }

  async album(id: string): Promise<Result<SongList | undefined>> {
    if (!isJellyfinId(id)) return ok(undefined);
    const sorted = {
      ParentId: id,
      SortBy: 'ParentIndexNumber,IndexNumber,SortName',
      Limit: COLLECTION_LIMIT,
    };
    const songs = await this.listed('/Items', { ...SONGS, ...sorted }, itemToSong);
    if (!songs.ok) return songs;
    return ok(songs.value.length === 0 ? undefined : { songs: songs.value });
  }

  /** A playlist's songs in its own order; entries that are not songs (audiobooks) are left out and counted. */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    if (!isJellyfinId(id)) return ok(undefined);
    const found = await this.client.find(`/Playlists/${id}/Items`, { Limit: COLLECTION_LIMIT }, ItemsSchema);
    if (!found.ok) return found;
    if (!found.value) return ok(undefined);
    const { data, session } = found.value;
    const songs = data.Items.filter(isSong).map((item) => itemToSong(session.serverUrl, item));
    return ok({ songs, ...(songs.length < data.Items.length && { totalCount: data.Items.length }) });
  }

  async playlistDetail(id: string): Promise<Result<PlaylistDetail | undefined>> {
    const item = await findItem(this.client, id, 'Playlist', { Fields: 'ChildCount,Overview' });
    if (!item.ok) return item;
    return ok(item.value && itemToPlaylistDetail(item.value.session.serverUrl, item.value.data));
  }

  async lyrics(id: string): Promise<Result<string | undefined>> {
    if (!isJellyfinId(id)) return ok(undefined);
    const found = await this.client.find(`/Audio/${id}/Lyrics`, {}, LyricsSchema);
    if (!found.ok) return found;
    return ok(found.value && lyricsToLrc(found.value.data.Lyrics));
  }

  /** Personal FM: an Instant Mix (songs like it) around a random song of the library. */
  async personalFm(): Promise<Result<Song[]>> {
    const seed = await this.listed('/Items', { ...SONGS, SortBy: 'Random', Limit: 1 }, asItem);
    if (!seed.ok) return seed;
    const [first] = seed.value;
    return first ? this.listed(`/Items/${first.Id}/InstantMix`, { Limit: FM_BATCH }, itemToSong) : ok([]);
  }

  /**
   * Songs like `song`: its Instant Mix. The server may put the seed itself in the mix (first, or
   * among the genre picks, by version), so one more is asked for and the seed is dropped.
   */
  async relatedSongs(song: Song, limit: number): Promise<Result<Song[]>> {
    if (!isJellyfinId(song.id)) return ok([]);
    const mix = await this.listed(`/Items/${song.id}/InstantMix`, { Limit: limit + 1 }, itemToSong);
    if (!mix.ok) return mix;
    return ok(mix.value.filter((entry) => !sameJellyfinId(entry.id, song.id)).slice(0, limit));
  }

  /** Not configured, or credentials the server refuses, is "not logged in" (with the reason); only an unreachable server is an error. */
  async accountStatus(): Promise<Result<AccountStatus>> {
    const session = await this.client.session();
    if (!session.ok) {
      const phrase = LOGGED_OUT_REASONS.get(session.error);
      return phrase ? ok({ loggedIn: false, nickname: session.error, phrase: phrase() }) : session;
    }
    const user = await this.client.get(`/Users/${session.value.userId}`, {}, UserSchema);
    if (!user.ok) return user;
    const { data, session: current } = user.value;
    return ok({
      loggedIn: true,
      nickname: data.Name,
      ...(data.PrimaryImageTag && { avatarUrl: `${current.serverUrl}/Users/${data.Id}/Images/Primary` }),
    });
  }

  latestAlbums(limit: number): Promise<Result<Album[]>> {
    const newest = { SortBy: 'DateCreated,SortName', SortOrder: 'Descending', Limit: limit };
    return this.listed('/Items', { ...ALBUMS, ...newest }, itemToAlbum);
  }

  /** The songs played most, never-played ones left out. */
  mostPlayed(limit: number): Promise<Result<Song[]>> {
    const mostFirst = {
      Filters: 'IsPlayed',
      SortBy: 'PlayCount,SortName',
      SortOrder: 'Descending',
      Limit: limit,
    };
    return this.listed('/Items', { ...SONGS, ...mostFirst }, itemToSong);
  }

  favorites(limit: number): Promise<Result<Song[]>> {
    return this.listed(
      '/Items',
      { ...SONGS, Filters: 'IsFavorite', SortBy: 'SortName', Limit: limit },
      itemToSong,
    );
  }

  /** Music genres by name. `/MusicGenres` is marked obsolete upstream but answers on 10.8 through 12.0. */
  genres(limit: number): Promise<Result<Genre[]>> {
    return this.listed('/MusicGenres', { SortBy: 'SortName', Limit: limit }, itemToGenre);
  }

  /** A random pick of the genre's songs, so a genre played twice does not start the same way. */
  async genreSongs(genreId: string, limit: number): Promise<Result<Song[]>> {
    if (!isJellyfinId(genreId)) return ok([]);
    return this.listed('/Items', { ...SONGS, GenreIds: genreId, SortBy: 'Random', Limit: limit }, itemToSong);
  }

  /** The items of a list answer (`{Items}`), each made into an entry with the server's address at hand. */
  private async listed<T>(
    path: string,
    query: JellyfinQuery,
    toEntry: (serverUrl: string, item: Item) => T,
  ): Promise<Result<T[]>> {
    const found = await this.client.get(path, query, ItemsSchema);
    if (!found.ok) return found;
    const { data, session } = found.value;
    return ok(data.Items.map((item) => toEntry(session.serverUrl, item)));
  }
}
