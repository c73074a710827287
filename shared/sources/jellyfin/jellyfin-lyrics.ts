/**
 * Jellyfin's lyrics (`/Audio/{id}/Lyrics`, Jellyfin 10.9+) as LRC text: each line's `Start` (ticks of
 * 100 ns) becomes a `[mm:ss.xx]` tag. Unsynced lyrics have no `Start` and stay plain lines.
 *
 * Shape from jellyfin/jellyfin MediaBrowser.Model/Lyrics (`LyricDto.Lyrics`, `LyricLine.Text`/`Start`).
 */
const TICKS_PER_CENTISECOND = 100_000;

export interface LyricLine {
  Text?: string | null | undefined;
  Start?: number | null | undefined;
}

/** The LRC text, or undefined when there is no line with text. */
export function lyricsToLrc(lines: LyricLine[]): string | undefined {
  if (!lines.some((line) => line.Text?.trim())) return undefined;
  return lines.map((line) => (line.Start == null ? '' : timeTag(line.Start)) + (line.Text ?? '')).join('\n');
}

function timeTag(ticks: number): string {
  const centiseconds = Math.max(0, Math.floor(ticks / TICKS_PER_CENTISECOND));
  const minutes = Math.floor(centiseconds / 6000);
  const seconds = Math.floor(centiseconds / 100) % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `[${pad(minutes)}:${pad(seconds)}.${pad(centiseconds % 100)}]`;
}
