/**
 * YouTube ids as the `video_b` source accepts them: a bare id or a youtube.com / youtu.be link,
 * normalised to the id. Only ids of the known shapes ever reach yt-dlp, and then only inside a
 * canonical URL, so no input can be taken for an option or another site.
 *
 * Shapes from yt-dlp/yt-dlp: yt_dlp/extractor/youtube/_video.py (`_VALID_URL`: 11-character video
 * ids of `[0-9A-Za-z_-]`, on watch, youtu.be, shorts, embed, live and v paths) and
 * yt_dlp/extractor/youtube/_base.py (`_PLAYLIST_ID_RE`: PL, LL, EC, UU, FL, RD, UL, TL, PU and
 * OLAK5uy_ (album) prefixes followed by at least 10 id characters).
 */

const VIDEO_ID = /^[0-9A-Za-z_-]{11}$/;
// The account-only lists (WL, LM, RDMM) need a login we do not have, so they are not accepted.
const PLAYLIST_ID = /^(?:PL|LL|EC|UU|FL|RD|UL|TL|PU|OLAK5uy_)[0-9A-Za-z_-]{10,}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const SHORT_HOSTS = new Set(['youtu.be', 'www.youtu.be']);
/** Paths whose next segment is the video id: `/shorts/<id>`, `/embed/<id>`, … */
const VIDEO_PATHS = new Set(['shorts', 'embed', 'live', 'v']);

export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;
export const playlistUrl = (listId: string) => `https://www.youtube.com/playlist?list=${listId}`;
/** The video's mix (YouTube's radio of videos like it): `RD` and the video id, listed on its watch page. */
export const mixUrl = (videoId: string) => `${watchUrl(videoId)}&list=RD${videoId}`;

export const isYoutubeVideoId = (id: string) => VIDEO_ID.test(id);

/** The 11-character video id in `input` (an id or a video link), or undefined. */
export function youtubeVideoId(input: string): string | undefined {
  const text = input.trim();
  if (VIDEO_ID.test(text)) return text;
  const url = youtubeUrl(text);
  if (!url) return undefined;
  const [first, second] = url.pathname.split('/').filter(Boolean);
  const candidate = SHORT_HOSTS.has(url.hostname)
    ? first
    : first === 'watch'
      ? url.searchParams.get('v')
      : first && VIDEO_PATHS.has(first)
        ? second
        : undefined;
  return candidate && VIDEO_ID.test(candidate) ? candidate : undefined;
}

/** The playlist id in `input` (an id, a playlist link, or a watch link with `list=`), or undefined. */
export function youtubePlaylistId(input: string): string | undefined {
  const text = input.trim();
  if (PLAYLIST_ID.test(text)) return text;
  const list = youtubeUrl(text)?.searchParams.get('list');
  return list && PLAYLIST_ID.test(list) ? list : undefined;
}

function youtubeUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const known = YOUTUBE_HOSTS.has(url.hostname) || SHORT_HOSTS.has(url.hostname);
  return known && (url.protocol === 'https:' || url.protocol === 'http:') ? url : undefined;
}
