/**
 * Finds what a player call asks for: picks the platform (SPEC.md platform rules), then asks that
 * platform's catalog. A disabled platform is a 400, an unavailable one a 501, nothing found a 404,
 * and a platform that could not answer (network, refusal) a 502 carrying the catalog's sentence.
 */
import { and, eq } from 'drizzle-orm';
import { personalLinks } from '../../shared/db/schema';
import {
  DEFAULT_PLATFORM_PRIORITY,
  PLATFORMS,
  type Platform,
  platformFacts,
} from '../../shared/domain/platforms';
import type { Album, Playlist, Song } from '../../shared/domain/schemas';
import { say } from '../../shared/i18n/phrases';
import { ok, type Result } from '../../shared/result';
import { readSettings } from '../../shared/settings/settings';
import { valueWithin } from '../../shared/settle-within';
import { choosePlatform, isPlatformEnabled } from '../../shared/sources/platform-choice';
import type { Catalogs } from '../../shared/sources/platform-modules';
import type { CatalogFailure, SongCatalog, SongList } from '../../shared/sources/song-catalog';
import type { AppDeps } from '../env';
import { ApiError } from '../errors';
import { platformFailure } from './platform-failure';

export interface SearchResults {
  songs: Song[];
  albums: Album[];
  playlists: Playlist[];
}

/** How long one source may take in an all-sources search before its results are left out. */
export const SEARCH_ALL_SOURCE_TIMEOUT_MS = 5000;

export class SongFinder {
  constructor(
    private readonly deps: Pick<AppDeps, 'db'>,
    private readonly catalogs: Catalogs,
    private readonly searchAllTimeoutMs = SEARCH_ALL_SOURCE_TIMEOUT_MS,
  ) {}

  async catalog(requested: Platform | undefined): Promise<{ platform: Platform; catalog: SongCatalog }> {
    const choice = choosePlatform(await readSettings(this.deps.db), requested);
    if (!choice.ok) {
      throw new ApiError(
        400,
        choice.error.kind === 'not-enabled'
          ? say.sourceNotEnabled(choice.error.platform)
          : 'no music source is enabled',
      );
    }
    const catalog = this.catalogs.get(choice.value);
    if (!catalog) throw new ApiError(501, `the source ${choice.value} is not available in this build`);
    return { platform: choice.value, catalog };
  }

  /**
   * Asks the chosen platform's catalog one thing. `call` answers undefined when the catalog lacks the
   * method: that is a 501 naming `what`.
   */
  async ask<T>(
    requested: Platform | undefined,
    what: string,
    call: (catalog: SongCatalog) => Promise<Result<T, CatalogFailure>> | undefined,
  ): Promise<T> {
    const { platform, catalog } = await this.catalog(requested);
    const pending = call(catalog);
    if (!pending) throw new ApiError(501, `the source ${platform} has no ${what}`);
    return answered(platform, await pending);
  }

  search(query: string, platform: Platform | undefined, limit: number, offset = 0): Promise<Song[]> {
    return this.ask(platform, 'search', (catalog) => catalog.search(query, limit, offset));
  }

  /** Songs, albums and playlists at once; a catalog that cannot search albums or playlists adds none. */
  async searchEverything(query: string, platform: Platform | undefined, limit: number, offset = 0) {
    const { platform: chosen, catalog } = await this.catalog(platform);
    const none = Promise.resolve(ok([]));
    const [songs, albums, playlists] = await Promise.all([
      catalog.search(query, limit, offset),
      catalog.searchAlbums?.(query, limit, offset) ?? none,
      catalog.searchPlaylists?.(query, limit, offset) ?? none,
    ]);
    return {
      songs: answered(chosen, songs),
      albums: answered(chosen, albums),
      playlists: answered(chosen, playlists),
    };
  }

  /**
   * Every enabled source whose registry row is `inSearchAll` (SPEC rule 5: all but Spotify), asked
   * concurrently; each has `timeoutMs` to answer. A source that fails, has no catalog or is late adds
   * nothing, so one bad source never fails the search. Results keep the sources' priority order (the
   * default source first, those without a priority last).
   */
  async searchAll(query: string, limit: number): Promise<SearchResults> {
    const settings = await readSettings(this.deps.db);
    const order = [settings.defaultPlatform, ...DEFAULT_PLATFORM_PRIORITY, ...PLATFORMS];
    const platforms = [...new Set(order)].filter(
      (p): p is Platform => p !== null && platformFacts(p).inSearchAll && isPlatformEnabled(settings, p),
    );
    const answers = await Promise.all(
      platforms.map((platform) => {
        const catalog = this.catalogs.get(platform);
        return catalog
          ? valueWithin(searchCatalog(catalog, query, limit), this.searchAllTimeoutMs)
          : undefined;
      }),
    );
    const merged: SearchResults = { songs: [], albums: [], playlists: [] };
    for (const answer of answers) {
      if (!answer) continue;
      merged.songs.push(...answer.songs);
      merged.albums.push(...answer.albums);
      merged.playlists.push(...answer.playlists);
    }
    return merged;
  }

  async firstResult(query: string, platform: Platform | undefined): Promise<Song> {
    const [first] = await this.search(query, platform, 1);
    if (!first) throw new ApiError(404, say.noResults(query));
    return first;
  }

  async byId(songId: string, platform: Platform | undefined): Promise<Song> {
    const song = await this.ask(platform, 'songs', (catalog) => catalog.song(songId));
    if (!song) throw new ApiError(404, say.songNotFound());
    return song;
  }

  /**
   * SPEC: lyrics are `{lyrics}`, and a 404 is a song the platform does not know. A known song without
   * lyrics, or one from a source that keeps none, has empty lyrics; only then is the song looked up.
   */
  async lyrics(songId: string, platform: Platform | undefined): Promise<string> {
    const { platform: chosen, catalog } = await this.catalog(platform);
    const lyrics = catalog.lyrics && answered(chosen, await catalog.lyrics(songId));
    if (lyrics !== undefined) return lyrics;
    if (!answered(chosen, await catalog.song(songId))) throw new ApiError(404, say.songNotFound());
    return '';
  }

  async collection(
    kind: 'playlist' | 'album',
    id: string,
    platform: Platform | undefined,
  ): Promise<SongList> {
    const list = await this.ask(platform, `${kind}s`, (catalog) => catalog[kind]?.(id));
    if (!list) throw new ApiError(404, `${kind} not found`);
    return list;
  }

  /**
   * SPEC Player rule 8: personal FM as the caller's own linked account when they have one for the
   * platform (`personal_links`), otherwise the platform's shared bot login. The credential is handed
   * to the catalog only; it is never logged or returned.
   */
  async personalFm(platform: Platform | undefined, userId: string): Promise<Song[]> {
    const { platform: chosen, catalog } = await this.catalog(platform);
    if (!catalog.personalFm)
      throw new ApiError(501, `personal FM for ${chosen} is not available in this build`);
    const link = await this.deps.db.query.personalLinks.findFirst({
      where: and(eq(personalLinks.userId, userId), eq(personalLinks.platform, chosen)),
    });
    return answered(chosen, await catalog.personalFm(link?.credential));
  }
}

/** One source's part of an all-sources search; undefined when it failed. */
async function searchCatalog(catalog: SongCatalog, query: string, limit: number) {
  const none = Promise.resolve(ok([]));
  const [songs, albums, playlists] = await Promise.all([
    catalog.search(query, limit),
    catalog.searchAlbums?.(query, limit) ?? none,
    catalog.searchPlaylists?.(query, limit) ?? none,
  ]);
  if (!songs.ok) return undefined;
  return {
    songs: songs.value,
    albums: albums.ok ? albums.value : [],
    playlists: playlists.ok ? playlists.value : [],
  };
}

/** A catalog's failure is the platform's, not ours: 502 with its sentence; a refused request is a 400. */
function answered<T>(platform: Platform, result: Result<T, CatalogFailure>): T {
  if (result.ok) return result.value;
  const { error } = result;
  if (typeof error === 'string') throw platformFailure(platform, error);
  throw new ApiError(400, error.refused);
}
