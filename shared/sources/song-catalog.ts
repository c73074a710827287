/**
 * The look-up side of a music source: finding songs by text or id, listing collections, lyrics and the
 * personal pages (recommendations, daily songs, FM, the account's playlists). One catalog per platform,
 * made by the platform's module; the api asks it and never switches on the platform. Playing (stream
 * resolution) is the daemon's side of a source (music-source.ts).
 *
 * Only `search` and `song` are required; every other method is optional and a platform that lacks it
 * answers 501 at the api. Every method answers a Result: an error is a platform that could not answer
 * (network, refusal, unexpected shape, not logged in), as a readable sentence naming the service;
 * "no such item" is an ok `undefined`. `search` and `song` may also refuse the request itself (a
 * CatalogFailure with `refused`: an address this server will not fetch), which the api answers 400.
 */
import type { Album, Playlist, PlaylistDetail, Song } from '../domain/schemas';
import type { Phrase } from '../i18n/phrases';
import type { Result } from '../result';

/** A collection's songs. `totalCount` is set when the source dropped unplayable ones: the count before. */
export interface SongList {
  songs: Song[];
  totalCount?: number;
  /**
   * Set by a source that shows every song but plays only some (SPEC Player rule 7, QQ Music):
   * the songs that play for its login. Browsing shows `songs`; playing the collection loads these.
   */
  playable?: Song[];
}

/** Who the platform's login is, as shown to people (never the credential itself). */
export interface AccountStatus {
  loggedIn: boolean;
  /** In English; `phrase` is the same words as a phrase where they are not a person's name. */
  nickname?: string;
  phrase?: Phrase;
  avatarUrl?: string;
}

/** The platform could not answer (a sentence), or the request is refused as asked (`refused`). */
export type CatalogFailure = string | { refused: string };

export interface SongCatalog {
  /** Songs matching `query`, best first, skipping the first `offset`. */
  search(query: string, limit: number, offset?: number): Promise<Result<Song[], CatalogFailure>>;
  searchAlbums?(query: string, limit: number, offset?: number): Promise<Result<Album[]>>;
  searchPlaylists?(query: string, limit: number, offset?: number): Promise<Result<Playlist[]>>;
  /** The song with this id, or undefined when the platform does not know it. */
  song(id: string): Promise<Result<Song | undefined, CatalogFailure>>;
  /** A playlist's songs, or undefined when there is no such playlist. */
  playlist?(id: string): Promise<Result<SongList | undefined>>;
  playlistDetail?(id: string): Promise<Result<PlaylistDetail | undefined>>;
  album?(id: string): Promise<Result<SongList | undefined>>;
  /** The song's lyrics as LRC text (`[mm:ss.xx]line`), translations as extra timed lines; undefined when none. */
  lyrics?(id: string): Promise<Result<string | undefined>>;
  recommendedPlaylists?(limit: number): Promise<Result<Playlist[]>>;
  /** The logged-in account's daily recommended songs. */
  dailySongs?(): Promise<Result<Song[]>>;
  /**
   * Personal FM: a batch of songs picked for an account. `credential` is the caller's own linked
   * account (its `personal_links` row); without one the platform's shared bot login is used.
   */
  personalFm?(credential?: string): Promise<Result<Song[]>>;
  /**
   * Songs like `song`, for autoplay when a queue runs out: the platform's own similar songs, radio or
   * mix, `song` itself left out; at most `limit`.
   */
  relatedSongs?(song: Song, limit: number): Promise<Result<Song[]>>;
  /** The playlists of the logged-in account (created and collected). */
  userPlaylists?(): Promise<Result<Playlist[]>>;
  /** Whether the shared login works, and as whom. */
  accountStatus?(): Promise<Result<AccountStatus>>;
}
