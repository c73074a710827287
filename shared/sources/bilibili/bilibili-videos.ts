/**
 * Bilibili videos and their parts as this app's Songs. Search answers mark the matched words with
 * `<em class="keyword">` and escape HTML, give durations as unpadded `m:ss` / `h:mm:ss` text and covers
 * as scheme-less `//` URLs; `view` and `popular` give seconds and `http://` covers. A song's artist is
 * the uploader.
 *
 * Shapes from SocialSisterYi/bilibili-API-collect (docs/search/search_request.md, docs/video/info.md,
 * docs/video_ranking/popular.md).
 */
import type { Song } from '../../domain/schemas';
import type { Page, SearchRow, Video } from './bilibili-schemas';
import { partSongId } from './video-ids';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

/** A search title as plain text: highlight tags removed, HTML entities decoded. */
export function plainTitle(title: string): string {
  return title
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/** Seconds in "3:45", "4:1" or "1:02:03"; 0 when the text is not a duration. */
export function clockSeconds(text: string): number {
  if (!/^\d+(:\d+){1,2}$/.test(text)) return 0;
  return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** Covers come as `//host/…` or `http://host/…`; browsers on an https page need https. */
export function httpsUrl(url: string): string {
  if (url.startsWith('//')) return `https:${url}`;
  return url.replace(/^http:\/\//, 'https://');
}

export function searchRowToSong(row: SearchRow): Song {
  return {
    id: row.bvid,
    name: plainTitle(row.title),
    artist: row.author,
    album: '',
    duration: clockSeconds(row.duration),
    coverUrl: httpsUrl(row.pic),
    platform: 'video_a',
  };
}

export function videoToSong(video: Video): Song {
  return {
    id: video.bvid,
    name: video.title,
    artist: video.owner.name,
    album: '',
    duration: video.duration,
    coverUrl: httpsUrl(video.pic),
    platform: 'video_a',
  };
}

/** One part of a multi-part video: named after the part, with the video's title as its album. */
export function partToSong(video: Video, page: Page): Song {
  return {
    ...videoToSong(video),
    id: partSongId(video.bvid, page.page),
    name: page.part || video.title,
    album: video.title,
    duration: page.duration,
  };
}
