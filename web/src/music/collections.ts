/**
 * Albums and playlists as the music pages show them: one shape for both, the link to a collection's
 * own page, and what a list already knew about it (name, cover, artist) carried in the history state,
 * so the page shows it at once — for albums the source has no details route, so this (or the songs
 * themselves) is all there is.
 */
import type { Schemas } from '@api/index';
import type { RouteLocationNormalizedLoaded, RouteLocationRaw } from 'vue-router';
import { t } from '../i18n';
import { canPlayer, playAlbum, playPlaylist } from '../player/actions';
import type { Platform } from './platforms';

export type CollectionKind = 'album' | 'playlist';

export interface Collection {
  kind: CollectionKind;
  id: string;
  platform: Platform;
  name: string;
  coverUrl: string;
  songCount: number;
  /** The album's artist; playlists have none. */
  artist: string;
}

export const albumCollection = (album: Schemas['Album']): Collection => ({ kind: 'album', ...album });
export const playlistCollection = (playlist: Schemas['Playlist']): Collection => ({
  kind: 'playlist',
  artist: '',
  ...playlist,
});

/** The line under a collection's name in a list: its artist (albums) and how many songs it holds. */
export const collectionSummary = (item: Collection): string =>
  [item.artist, t('music.songCount', { count: item.songCount })].filter(Boolean).join(' · ');

/** Whether the principal may replace the bot's queue with the collection (play all). */
export const canPlayCollection = (botId: string, item: Collection): boolean =>
  botId !== '' && canPlayer(botId, item.kind === 'playlist' ? 'play-playlist' : 'play-album');

/** Play all: the bot's queue becomes the collection's songs. */
export const playCollection = (botId: string, item: Collection) =>
  item.kind === 'playlist' ? playPlaylist(botId, item.id, item.platform) : playAlbum(botId, item);

/** The collection's page, under `/bot/<id>` when the UI is locked to a bot. */
export function collectionRoute(current: RouteLocationNormalizedLoaded, item: Collection): RouteLocationRaw {
  const params = { kind: item.kind, platform: item.platform, id: item.id };
  const state = { collection: { ...item } };
  return current.meta.locked
    ? { name: 'bot-collection', params: { ...params, botId: String(current.params.botId) }, state }
    : { name: 'collection', params, state };
}

/** What the link that led here knew about the collection, when it matches the page's. */
export function collectionFromHistory(
  kind: CollectionKind,
  platform: string,
  id: string,
): Collection | undefined {
  const stored: unknown = window.history.state?.collection;
  if (!stored || typeof stored !== 'object') return undefined;
  const item = stored as Partial<Collection>;
  if (item.kind !== kind || item.platform !== platform || item.id !== id) return undefined;
  return typeof item.name === 'string' && typeof item.coverUrl === 'string'
    ? (item as Collection)
    : undefined;
}
