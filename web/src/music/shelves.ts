/**
 * The shelves of the music home for one source: what each asks the API for, and what it shows —
 * songs, albums or playlists (as collections), or genres. A source has the shelves its registry row
 * names: the personal pages (recommended playlists, daily songs, the account's playlists; the last two
 * never for guests, and asked only while the platform has a signed-in account), the library's newest
 * albums, most played songs and genres, the videos' popular ones, the albums of the uploads (these are
 * routes of one platform each, whose paths platforms/platform-routes.ts keeps).
 */
import type { Schemas } from '@api/index';
import { ACCOUNT_SHELVES, platformFacts, type ShelfKind } from '@shared/domain/platforms';
import { api, type CallResult, call } from '../api/client';
import type { MessageKey } from '../i18n';
import { PLATFORM_ROUTES } from '../platforms/platform-routes';
import { can } from '../stores/session';
import { albumCollection, type Collection, playlistCollection } from './collections';
import type { Platform } from './platforms';

export type ShelfContent =
  | { kind: 'songs'; songs: Schemas['Song'][] }
  | { kind: 'collections'; items: Collection[] }
  | { kind: 'genres'; genres: Schemas['Genre'][] };

export interface Shelf {
  key: string;
  title: MessageKey;
  load: () => Promise<CallResult<ShelfContent>>;
  /** Whether it shows a grid of covers (grey tiles while it loads); genres are a row of buttons. */
  covers: boolean;
}

const RECOMMENDED = 12;
const LIBRARY = 12;
const GENRES = 30;

async function shelf<T>(request: Promise<CallResult<T>>, content: (value: T) => ShelfContent) {
  const result = await request;
  return result.ok ? { ok: true as const, value: content(result.value) } : result;
}
const songs = (value: { songs: Schemas['Song'][] }): ShelfContent => ({ kind: 'songs', songs: value.songs });
const playlists = (value: { playlists: Schemas['Playlist'][] }): ShelfContent => ({
  kind: 'collections',
  items: value.playlists.map(playlistCollection),
});

export const isEmptyShelf = (content: ShelfContent): boolean =>
  (content.kind === 'songs' ? content.songs : content.kind === 'collections' ? content.items : content.genres)
    .length === 0;

type ShelfRequest = Omit<Shelf, 'covers'> & { path: string };
const library = (limit: number) => ({ params: { query: { limit } } });
const OWN = PLATFORM_ROUTES.shelves;

/** How each kind of shelf is asked for; the platform's registry row says which kinds it has. */
const SHELVES: Record<ShelfKind, (platform: Platform) => ShelfRequest> = {
  recommendedPlaylists: (platform) => ({
    key: 'recommendedPlaylists',
    title: 'home.recommended',
    path: '/api/music/recommend/playlists',
    load: () =>
      shelf(
        call(
          api.GET('/api/music/recommend/playlists', { params: { query: { platform, limit: RECOMMENDED } } }),
        ),
        playlists,
      ),
  }),
  // Daily songs and the account's playlists come whole (every playlist the account has); only the
  // recommendations are cut to a shelf's length.
  dailySongs: (platform) => ({
    key: 'dailySongs',
    title: 'home.daily',
    path: '/api/music/recommend/songs',
    load: () =>
      shelf(call(api.GET('/api/music/recommend/songs', { params: { query: { platform } } })), songs),
  }),
  accountPlaylists: (platform) => ({
    key: 'accountPlaylists',
    title: 'home.account',
    path: '/api/music/user/playlists',
    load: () =>
      shelf(call(api.GET('/api/music/user/playlists', { params: { query: { platform } } })), playlists),
  }),
  popularVideos: () => ({
    key: 'popularVideos',
    title: 'home.popularVideos',
    path: OWN.popularVideos,
    load: () => shelf(call(api.GET(OWN.popularVideos, library(LIBRARY))), songs),
  }),
  latestAlbums: () => ({
    key: 'latestAlbums',
    title: 'home.latestAlbums',
    path: OWN.latestAlbums,
    load: () =>
      shelf(call(api.GET(OWN.latestAlbums, library(LIBRARY))), (value) => ({
        kind: 'collections',
        items: value.albums.map(albumCollection),
      })),
  }),
  mostPlayed: () => ({
    key: 'mostPlayed',
    title: 'home.mostPlayed',
    path: OWN.mostPlayed,
    load: () => shelf(call(api.GET(OWN.mostPlayed, library(LIBRARY))), songs),
  }),
  uploadedAlbums: () => ({
    key: 'uploadedAlbums',
    title: 'home.uploadedAlbums',
    path: OWN.uploadedAlbums,
    load: () =>
      shelf(call(api.GET(OWN.uploadedAlbums, library(LIBRARY))), (value) => ({
        kind: 'collections',
        items: value.albums.map(albumCollection),
      })),
  }),
  genres: () => ({
    key: 'genres',
    title: 'home.genres',
    path: OWN.genres,
    load: () =>
      shelf(call(api.GET(OWN.genres, library(GENRES))), (value) => ({
        kind: 'genres',
        genres: value.genres,
      })),
  }),
};

/** The shelves of the platform's registry row this principal may load, with or without an account. */
const permittedShelves = (platform: Platform): ShelfKind[] =>
  platformFacts(platform).shelves.filter((kind) => can('GET', SHELVES[kind](platform).path));

/**
 * The shelves the platform has (its registry row) that this principal may load; those of an account
 * only when the platform has a signed-in one (the platform refuses them otherwise).
 */
export function shelvesOf(platform: Platform, signedIn: boolean): Shelf[] {
  return permittedShelves(platform)
    .filter((kind) => signedIn || !ACCOUNT_SHELVES.includes(kind))
    .map((kind) => ({ ...SHELVES[kind](platform), covers: kind !== 'genres' }));
}

/** The account shelves this principal would see once the platform has a signed-in account. */
export const accountShelvesOf = (platform: Platform): ShelfKind[] =>
  permittedShelves(platform).filter((kind) => ACCOUNT_SHELVES.includes(kind));
