/**
 * QQ Music tracks as this app's Songs, and which of them can play.
 *
 * Cover URL pattern (`T002R300x300M000<album mid>.jpg`) from L-1124/QQMusicApi
 * (qqmusic_api/modules/album.py); `pay.pay_play` and `file.media_mid` from jsososo/QQMusicApi
 * (routes/song.js, `mediaId`) and the track shape its routes pass through.
 */
import type { Song } from '../../domain/schemas';
import type { Track } from './qq-music-schemas';

export function coverUrl(albumMid: string): string {
  return albumMid ? `https://y.gtimg.cn/music/photo_new/T002R300x300M000${albumMid}.jpg` : '';
}

export function trackToSong(track: Track): Song {
  return {
    id: track.mid,
    name: track.title || track.name,
    artist: track.singer.map((s) => s.name).join(' / '),
    album: track.album.name,
    duration: track.interval,
    coverUrl: coverUrl(track.album.mid),
    platform: 'music_b',
    // Paid, or with no audio file at all (restricted by copyright): shown, but marked.
    ...((track.pay.pay_play === 1 || track.file.media_mid === '') && { vip: true }),
  };
}

/**
 * Whether the track plays in full for this bot: it must have audio at all, and a paid track needs a
 * login (QQ Music itself decides at play time whether that account is a paying one).
 */
export function isPlayable(track: Track, loggedIn: boolean): boolean {
  return track.file.media_mid !== '' && (track.pay.pay_play !== 1 || loggedIn);
}
