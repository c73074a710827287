/**
 * Spotify's objects as the service's Song, Album, Playlist and PlaylistDetail. Artists are joined
 * with " / " like every other source; the cover is the widest image (Spotify lists them widest first).
 */
import type { Album, Playlist, PlaylistDetail, Song } from '../../domain/schemas';
import type { SimplifiedAlbum, SimplifiedPlaylist, SimplifiedTrack, Track } from './spotify-schemas';

const PLATFORM = 'streaming_a' as const;

const coverOf = (images: { url: string }[] | null | undefined): string => images?.[0]?.url ?? '';
const artistsOf = (artists: { name: string }[]): string => artists.map((a) => a.name).join(' / ');

export function trackToSong(track: Track): Song {
  return albumTrackToSong(track, track.album);
}

/** A track of an album answer, which names its album only once, at the top. */
export function albumTrackToSong(
  track: SimplifiedTrack,
  album: { name: string; images?: { url: string }[] | null | undefined },
): Song {
  return {
    id: track.id,
    name: track.name,
    artist: artistsOf(track.artists),
    album: album.name,
    duration: Math.round(track.duration_ms / 1000),
    coverUrl: coverOf(album.images),
    platform: PLATFORM,
  };
}

export function albumToAlbum(album: SimplifiedAlbum): Album {
  return {
    id: album.id,
    name: album.name,
    artist: artistsOf(album.artists),
    coverUrl: coverOf(album.images),
    songCount: album.total_tracks ?? 0,
    platform: PLATFORM,
  };
}

export function playlistToPlaylist(playlist: SimplifiedPlaylist): Playlist {
  return {
    id: playlist.id,
    name: playlist.name,
    coverUrl: coverOf(playlist.images),
    songCount: playlist.items?.total ?? 0,
    platform: PLATFORM,
  };
}

export function playlistToDetail(playlist: SimplifiedPlaylist): PlaylistDetail {
  return {
    id: playlist.id,
    name: playlist.name,
    description: playlist.description ?? '',
    coverUrl: coverOf(playlist.images),
    songCount: playlist.items?.total ?? 0,
  };
}
