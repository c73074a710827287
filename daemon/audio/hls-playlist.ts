/**
 * An HLS playlist as the relay hands it to ffmpeg: every address in it (segment, variant playlist,
 * key, map) is replaced by a loopback one, so ffmpeg's every later request comes back to the relay,
 * which fetches it through the request-forgery guard. ffmpeg never learns an outside address.
 */

/**
 * Rewrites `text` (fetched from `baseUrl`); `local(url, name)` gives the loopback address for an
 * outside one, `name` being its last path segment (ffmpeg judges a segment's format by its extension).
 */
export function rewriteHlsPlaylist(
  text: string,
  baseUrl: string,
  local: (absoluteUrl: string, name: string) => string,
): string {
  const replace = (reference: string): string => {
    let absolute: URL;
    try {
      absolute = new URL(reference, baseUrl);
    } catch {
      // Never left as written: ffmpeg would fetch it itself. As a comment it is skipped.
      return '#';
    }
    const name = absolute.pathname.split('/').at(-1) || 'segment';
    return local(absolute.href, name);
  };
  return text
    .split(/\r?\n/)
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === '') return line;
      if (!trimmed.startsWith('#')) return replace(trimmed);
      return line.replace(/URI="([^"]*)"/g, (_all, uri: string) => `URI="${replace(uri)}"`);
    })
    .join('\n');
}

/** Whether a text answer is an HLS playlist (the song's, or a variant of a master playlist). */
export function isHlsPlaylist(text: string): boolean {
  return text.replace(/^\uFEFF/, '').startsWith('#EXTM3U');
}
