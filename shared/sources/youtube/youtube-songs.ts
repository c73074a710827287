/**
 * yt-dlp video answers (flat entries and full answers alike) as `video_b` Songs: the channel is the
 * artist, there is no album, and the cover is yt-dlp's chosen thumbnail, else the widest listed one,
 * else YouTube's fixed `hqdefault.jpg` still (every video has one).
 */
import type { Song } from '../../domain/schemas';
import { isYoutubeVideoId } from './youtube-ids';
import type { Thumbnail, VideoSummary } from './youtube-schemas';

/**
 * Titles YouTube gives playlist items that can no longer be watched; yt-dlp passes them through
 * as flat entries with no channel and no duration.
 */
const UNAVAILABLE_TITLES = new Set(['[Private video]', '[Deleted video]']);

export function videoToSong(video: VideoSummary): Song {
  return {
    id: video.id,
    name: video.title ?? video.id,
    artist: video.channel ?? video.uploader ?? '',
    album: '',
    // Live streams have no duration.
    duration: Math.round(video.duration ?? 0),
    coverUrl: video.thumbnail ?? widest(video.thumbnails ?? [])?.url ?? stillUrl(video.id),
    platform: 'video_b',
  };
}

/** A flat entry that is a video someone can still watch (not a channel, playlist or removed item). */
export function isPlayableEntry(entry: VideoSummary): boolean {
  return isYoutubeVideoId(entry.id) && !UNAVAILABLE_TITLES.has(entry.title ?? '');
}

function widest(thumbnails: Thumbnail[]): Thumbnail | undefined {
  // yt-dlp lists thumbnails worst first, so the last one wins among equals (or when none has a width).
  return thumbnails.reduce<Thumbnail | undefined>(
    (best, t) => (!best || (t.width ?? 0) >= (best.width ?? 0) ? t : best),
    undefined,
  );
}

function stillUrl(videoId: string): string {
  return `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`;
}
