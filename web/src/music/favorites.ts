/**
 * Favorite playlists (per user, never for guests): adding one from what a list knows of it, asking
 * whether one is a favorite, and removing it by its playlist (the API removes by favorite id).
 */
import { routeExists } from '../api/access';
import { api, call } from '../api/client';
import { t } from '../i18n';
import { can } from '../stores/session';
import { notify, report } from '../stores/toasts';
import type { Collection } from './collections';

/** Whether this build has favorites and the principal may keep them. */
export const canFavorite = () => routeExists('POST', '/api/favorites') && can('POST', '/api/favorites');

export async function addFavorite(playlist: Collection): Promise<boolean> {
  const result = await call(
    api.POST('/api/favorites', {
      body: {
        platform: playlist.platform,
        playlistId: playlist.id,
        name: playlist.name,
        coverUrl: playlist.coverUrl,
        songCount: playlist.songCount,
      },
    }),
  );
  if (result.ok) notify(t('music.favorited', { name: playlist.name }));
  else report(result);
  return result.ok;
}

export async function isFavorite(playlist: Collection): Promise<boolean> {
  const result = await call(
    api.GET('/api/favorites/check', {
      params: { query: { platform: playlist.platform, playlistId: playlist.id } },
    }),
  );
  return result.ok && result.value.favorited;
}

export async function removeFavoriteById(id: string): Promise<boolean> {
  return report(await call(api.DELETE('/api/favorites/{id}', { params: { path: { id } } })));
}

export async function removeFavorite(playlist: Collection): Promise<boolean> {
  const list = await call(api.GET('/api/favorites'));
  if (!list.ok) return report(list);
  const found = list.value.favorites.find(
    (f) => f.platform === playlist.platform && f.playlistId === playlist.id,
  );
  if (!found || !(await removeFavoriteById(found.id))) return false;
  notify(t('music.unfavorited', { name: playlist.name }));
  return true;
}
