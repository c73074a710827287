/**
 * Kugou Music songs as this app's Songs. A song's id is its file hash (the 32 hex digits of its
 * standard-quality file, upper case as search answers it): every Kugou API that plays, looks up or
 * finds lyrics for a song takes the hash, while the audio id is only known to some answers. Each
 * answer names the fields differently, hence one mapping per answer; covers are URL templates with a
 * `{size}` placeholder.
 *
 * `privilege` 10 marks a VIP song and "singer - title" names come from MoeKoeMusic/MoeKoeMusic
 * (src/views/PlaylistDetail.vue: the VIP badge, `name.split(' - ')`; `$getCover` filling `{size}`).
 */
import type { Song } from '../../domain/schemas';
import type { AlbumSong, FmSong, PlaylistSong, PrivilegeItem, SongHit } from './kugou-schemas';

/** The `privilege` of songs only paying (VIP) accounts hear in full. */
export const VIP_PRIVILEGE = 10;
const COVER_SIZE = '400';

/** Whether `id` has the form of a Kugou file hash. */
export const isKugouHash = (id: string): boolean => /^[0-9a-f]{32}$/i.test(id);

export const coverUrl = (template: string): string => template.replace('{size}', COVER_SIZE);

interface SongFields {
  hash: string;
  name: string;
  artist: string;
  album: string;
  seconds: number;
  cover: string;
  privilege: number;
}

function toSong(fields: SongFields): Song {
  return {
    id: fields.hash.toUpperCase(),
    name: fields.name,
    artist: fields.artist,
    album: fields.album,
    duration: Math.round(fields.seconds),
    coverUrl: coverUrl(fields.cover),
    platform: 'music_c',
    ...(fields.privilege === VIP_PRIVILEGE && { vip: true }),
  };
}

/** "singer - title", as the file-name style answers give a song; a name without the dash is a title. */
export function splitName(name: string): { artist: string; title: string } {
  const dash = name.indexOf(' - ');
  return dash < 0
    ? { artist: '', title: name }
    : { artist: name.slice(0, dash), title: name.slice(dash + 3) };
}

export const hitToSong = (hit: SongHit): Song =>
  toSong({
    hash: hit.FileHash,
    name: hit.SongName,
    artist: hit.SingerName,
    album: hit.AlbumName,
    seconds: hit.Duration,
    cover: hit.Image,
    privilege: hit.Privilege,
  });

export function privilegeToSong(item: PrivilegeItem): Song {
  const { artist, title } = splitName(item.name);
  return toSong({
    hash: item.hash,
    name: title,
    artist: item.singername || artist,
    album: item.albumname,
    seconds: item.info.duration / 1000,
    cover: item.info.image,
    privilege: item.privilege,
  });
}

export function playlistSongToSong(song: PlaylistSong): Song {
  const { artist, title } = splitName(song.name);
  return toSong({
    hash: song.hash,
    name: title,
    artist,
    album: song.albuminfo.name,
    seconds: song.timelen / 1000,
    cover: song.cover,
    privilege: song.privilege,
  });
}

export const albumSongToSong = (song: AlbumSong): Song =>
  toSong({
    hash: song.audio_info.hash,
    name: song.base.audio_name,
    artist: song.base.author_name,
    album: song.album_info.album_name,
    seconds: song.audio_info.duration / 1000,
    cover: song.trans_param.union_cover,
    privilege: song.copyright.privilege,
  });

export const fmSongToSong = (song: FmSong): Song =>
  toSong({
    hash: song.hash,
    name: song.songname,
    artist: song.author_name,
    album: song.album_name,
    seconds: song.time_length,
    cover: song.sizable_cover,
    privilege: song.privilege,
  });
