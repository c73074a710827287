/**
 * Jellyfin items as this app's Songs, Albums and Playlists. Covers are the server's
 * `/Items/{id}/Images/Primary` (served without a login, so no token goes into the URL); a song with
 * no picture of its own shows its album's.
 *
 * Field names from jellyfin/jellyfin `BaseItemDto` (MediaBrowser.Model/Dto/BaseItemDto.cs) and the
 * image route from Jellyfin.Api/Controllers/ImageController.cs.
 */
import type { Album, Playlist, PlaylistDetail, Song } from '../../domain/schemas';
import { type Item, TICKS_PER_SECOND } from './jellyfin-schemas';

const PLATFORM = 'library_a';

export function coverUrl(serverUrl: string, itemId: string): string {
  return `${serverUrl}/Items/${itemId}/Images/Primary`;
}

function ownCover(serverUrl: string, item: Item): string {
  return item.ImageTags?.Primary ? coverUrl(serverUrl, item.Id) : '';
}

export function itemToSong(serverUrl: string, item: Item): Song {
  const albumCover = item.AlbumId && item.AlbumPrimaryImageTag ? coverUrl(serverUrl, item.AlbumId) : '';
  return {
    id: item.Id,
    name: item.Name ?? '',
    artist: item.Artists?.length ? item.Artists.join(' / ') : (item.AlbumArtist ?? ''),
    album: item.Album ?? '',
    duration: Math.round((item.RunTimeTicks ?? 0) / TICKS_PER_SECOND),
    coverUrl: ownCover(serverUrl, item) || albumCover,
    platform: PLATFORM,
  };
}

export function itemToAlbum(serverUrl: string, item: Item): Album {
  return {
    id: item.Id,
    name: item.Name ?? '',
    artist: item.AlbumArtist || (item.Artists ?? []).join(' / '),
    coverUrl: ownCover(serverUrl, item),
    songCount: item.ChildCount ?? 0,
    platform: PLATFORM,
  };
}

export function itemToPlaylist(serverUrl: string, item: Item): Playlist {
  return {
    id: item.Id,
    name: item.Name ?? '',
    coverUrl: ownCover(serverUrl, item),
    songCount: item.ChildCount ?? 0,
    platform: PLATFORM,
  };
}

export function itemToPlaylistDetail(serverUrl: string, item: Item): PlaylistDetail {
  const { platform: _, ...playlist } = itemToPlaylist(serverUrl, item);
  return { ...playlist, description: item.Overview ?? '' };
}
