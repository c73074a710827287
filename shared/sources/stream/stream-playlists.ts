/**
 * The text playlists a radio link often is: `.pls` (`File1=<url>`), `.m3u` (one address a line, `#`
 * lines are comments) and HLS (`.m3u8`, an M3U whose `#EXT-X-` tags make it a media or master
 * playlist that ffmpeg plays itself). Only the first entry of a `.pls` or plain `.m3u` is played.
 */

/** Content types of playlists; `audio/x-mpegurl` is used for plain M3U and HLS alike. */
const PLAYLIST_TYPES = [
  'audio/x-scpls',
  'application/pls+xml',
  'audio/x-mpegurl',
  'audio/mpegurl',
  'application/x-mpegurl',
  'application/vnd.apple.mpegurl',
];
const PLAYLIST_EXTENSION = /\.(pls|m3u8?)$/i;

/** Whether an answer is a playlist to read rather than audio to play. */
export function isPlaylistAnswer(contentType: string, url: string): boolean {
  if (PLAYLIST_TYPES.includes(contentType)) return true;
  // Servers often send playlists as text or bytes; the address tells then.
  const textual =
    contentType === '' || contentType.startsWith('text/') || contentType === 'application/octet-stream';
  return textual && PLAYLIST_EXTENSION.test(new URL(url).pathname);
}

export type ParsedPlaylist =
  | { kind: 'hls'; live: boolean }
  | { kind: 'entry'; url: string }
  | { kind: 'empty' };

export function parsePlaylist(text: string, baseUrl: string): ParsedPlaylist {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines[0] === '#EXTM3U' && lines.some((line) => line.startsWith('#EXT-X-'))) {
    // A media playlist without an end is live; a master playlist's variants are judged by ffmpeg.
    const endless = !lines.includes('#EXT-X-ENDLIST');
    return { kind: 'hls', live: endless };
  }
  const pls = lines.map((line) => /^File\d+\s*=\s*(.+)$/i.exec(line)?.[1]).find((v) => v !== undefined);
  const first = pls ?? lines.find((line) => !line.startsWith('#') && !line.startsWith('['));
  if (first === undefined) return { kind: 'empty' };
  try {
    return { kind: 'entry', url: new URL(first, baseUrl).href };
  } catch {
    return { kind: 'empty' };
  }
}
