/**
 * NetEase tracks, albums and playlists as this app's Songs, Albums and Playlists. A song NetEase marks as VIP (`fee` 1, or 4 for a bought album)
 * or as unavailable here (`privilege.st < 0`, no copyright) stays in the list and is marked `vip`:
 * only a preview, if anything, plays. Filtering unplayable songs out is QQ Music's rule alone.
 *
 * Field meanings (`fee`, `privilege.st`) from Binaryify/NeteaseCloudMusicApi (module/song_detail.js and
 * the privilege objects its answers carry).
 */
import type { Album, Playlist, Song } from '../../domain/schemas';
import type { AlbumHit, PlaylistRef, Privilege, Track } from './netease-schemas';

const VIP_FEES = new Set([1, 4]);
export const isVipFee = (fee: number) => VIP_FEES.has(fee);

export function trackToSong(track: Track, privilege: Privilege | undefined = track.privilege): Song {
  const restricted =
    isVipFee(track.fee) || (privilege !== undefined && (isVipFee(privilege.fee) || privilege.st < 0));
  return {
    id: String(track.id),
    name: track.name,
    artist: track.artists.join(' / '),
    album: track.album,
    duration: Math.round(track.durationMs / 1000),
    coverUrl: track.coverUrl,
    platform: 'music_a',
    ...(restricted && { vip: true }),
  };
}

/** Maps tracks whose privileges come in a separate list (song detail, playlist), matched by id. */
export function tracksToSongs(tracks: readonly Track[], privileges: readonly Privilege[]): Song[] {
  const byId = new Map(privileges.map((p) => [p.id, p]));
  return tracks.map((track) => trackToSong(track, byId.get(track.id) ?? track.privilege));
}

export const toAlbum = (album: AlbumHit): Album => ({
  ...album,
  id: String(album.id),
  platform: 'music_a',
});

export const toPlaylist = (playlist: PlaylistRef): Playlist => ({
  ...playlist,
  id: String(playlist.id),
  platform: 'music_a',
});

/** NetEase ids are numbers; anything else cannot name a NetEase song, playlist or album. */
export function neteaseId(id: string): number | undefined {
  const n = Number(id);
  return /^\d+$/.test(id) && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
