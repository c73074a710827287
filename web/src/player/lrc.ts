/**
 * LRC lyrics (`[mm:ss.xx]line`, several time tags may share one line; a translation follows as a line
 * with the same time) as time-ordered lines, and the line to show at a position.
 */
export interface LyricLine {
  seconds: number;
  text: string;
  /** A translation that shares the time tag. */
  translation?: string;
}

const TIME_TAG = /\[(\d{1,3}):(\d{1,2}(?:[.:]\d{1,3})?)\]/g;

export function parseLrc(text: string): LyricLine[] {
  const byTime = new Map<number, LyricLine>();
  for (const raw of text.split(/\r?\n/)) {
    const times = [...raw.matchAll(TIME_TAG)].map((m) => Number(m[1]) * 60 + Number(m[2]!.replace(':', '.')));
    const words = raw.replace(TIME_TAG, '').trim();
    if (times.length === 0 || !words) continue;
    for (const seconds of times) {
      const line = byTime.get(seconds);
      if (!line) byTime.set(seconds, { seconds, text: words });
      else if (line.translation === undefined) line.translation = words;
    }
  }
  return [...byTime.values()].sort((a, b) => a.seconds - b.seconds);
}

/** Index of the last line that has started at `seconds`, or -1 before the first. */
export function lineAt(lines: readonly LyricLine[], seconds: number): number {
  let found = -1;
  for (let i = 0; i < lines.length && lines[i]!.seconds <= seconds; i++) found = i;
  return found;
}
