/**
 * Jellyfin's lyrics (`/Audio/{id}/Lyrics`, Jellyfin 10.9+) as LRC text: each line's `Start` (ticks of
 * 100 ns) becomes a `[mm:ss.xx]` tag. Unsynced lyrics have no `Start` and stay plain lines.
 *
 * Shape from jellyfin/jellyfin MediaBrowser.Model/Lyrics (`LyricDto.Lyrics`, `LyricLine.Text`/`Start`).
 */
import { timeTag } from '../lrc';

const TICKS_PER_MS = 10_000;

export interface LyricLine {
  Text?: string | null | undefined;
  Start?: number | null | undefined;
}

/** The LRC text, or undefined when there is no line with text. */
export function lyricsToLrc(lines: LyricLine[]): string | undefined {
  if (!lines.some((line) => line.Text?.trim())) return undefined;
  return lines
    .map((line) => (line.Start == null ? '' : timeTag(line.Start / TICKS_PER_MS)) + (line.Text ?? ''))
    .join('\n');
}
