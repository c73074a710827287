/**
 * The shelves of the music home for one source: what each asks the API for, and what it shows —
 * songs, albums or playlists (as collections), or genres. Every source gets the personal pages
 * (recommended playlists, daily songs, the account's playlists; the last two never for guests); the
 * library adds its newest albums, most played songs and genres, the video source its popular videos.
 */
import type { Schemas } from '@api/index';
import { api, type CallResult, call } from '../api/client';
import type { MessageKey } from '../i18n';
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

export function shelvesOf(platform: Platform): Shelf[] {
  // Daily songs and the account's playlists come whole (every playlist the account has); only the
  // recommendations are cut to a shelf's length.
  const fromSource = { params: { query: { platform } } };
  const recommended = { params: { query: { platform, limit: RECOMMENDED } } };
  const library = (limit: number) => ({ params: { query: { limit } } });
  const all: (Shelf & { path: string })[] = [
    {
      key: 'recommended',
      title: 'home.recommended',
      path: '/api/music/recommend/playlists',
      load: () => shelf(call(api.GET('/api/music/recommend/playlists', recommended)), playlists),
    },
    {
      key: 'daily',
      title: 'home.daily',
      path: '/api/music/recommend/songs',
      load: () => shelf(call(api.GET('/api/music/recommend/songs', fromSource)), songs),
    },
    {
      key: 'account',
      title: 'home.account',
      path: '/api/music/user/playlists',
      load: () => shelf(call(api.GET('/api/music/user/playlists', fromSource)), playlists),
    },
  ];
  if (platform === 'library_a') {
    all.push(
      {
        key: 'latest',
        title: 'home.latestAlbums',
        path: '/api/music/library_a/latest-albums',
        load: () =>
          shelf(call(api.GET('/api/music/library_a/latest-albums', library(LIBRARY))), (value) => ({
            kind: 'collections',
            items: value.albums.map(albumCollection),
          })),
      },
      {
        key: 'most-played',
        title: 'home.mostPlayed',
        path: '/api/music/library_a/most-played',
        load: () => shelf(call(api.GET('/api/music/library_a/most-played', library(LIBRARY))), songs),
      },
      {
        key: 'genres',
        title: 'home.genres',
        path: '/api/music/library_a/genres',
        load: () =>
          shelf(call(api.GET('/api/music/library_a/genres', library(GENRES))), (value) => ({
            kind: 'genres',
            genres: value.genres,
          })),
      },
    );
  }
  if (platform === 'video_a') {
    all.push({
      key: 'popular',
      title: 'home.popularVideos',
      path: '/api/music/video_a/popular',
      load: () => shelf(call(api.GET('/api/music/video_a/popular', library(LIBRARY))), songs),
    });
  }
  return all.filter((s) => can('GET', s.path));
}
