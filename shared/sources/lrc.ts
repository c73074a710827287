/**
 * Lyrics as one LRC text, the form every catalog answers with: the original lines as the platform sends
 * them, each followed by its translation as an extra line with the same timestamp, so a player that
 * shows the lines at a time shows both. Translation lines whose time has no original line, and the
 * translation's own tags (`[by:…]`), are left out.
 *
 * LRC as the platforms write it: one or more `[mm:ss.xx]` or `[mm:ss.xxx]` tags, then the text (NetEase's
 * `lrc`/`tlyric` in Binaryify/NeteaseCloudMusicApi module/lyric.js, QQ Music's decoded `lyric`/`trans`).
 */

/** `[mm:ss]`, `[mm:ss.x…]` or `[mm:ss:x…]`; the fraction's digits are a decimal fraction of a second. */
const TIME_TAG = /\[(\d+):(\d+)(?:[.:](\d+))?\]/g;
const LEADING_TAGS = /^(?:\[\d+:\d+(?:[.:]\d+)?\])+/;

interface LrcLine {
  /** The tags as written, in order. */
  tags: string[];
  /** The same times in milliseconds, for matching lines written with different precision. */
  times: number[];
  text: string;
}

export function mergeLyrics(original: string, translation = ''): string | undefined {
  if (original.trim() === '') return undefined;
  const translated = new Map<number, string>();
  for (const line of parse(translation))
    if (line.text.trim() !== '') for (const time of line.times) translated.set(time, line.text);
  const merged = original.split(/\r?\n/).flatMap((raw) => {
    const line = parseLine(raw);
    if (!line) return [raw];
    const extra = line.tags.flatMap((tag, i) => {
      const text = translated.get(line.times[i]!);
      return text === undefined ? [] : [`${tag}${text}`];
    });
    return [raw, ...extra];
  });
  return merged.join('\n').trimEnd();
}

function parse(lrc: string): LrcLine[] {
  return lrc.split(/\r?\n/).flatMap((raw) => parseLine(raw) ?? []);
}

/** A timed line, or undefined for a tag line (`[ar:…]`) or plain text. */
function parseLine(raw: string): LrcLine | undefined {
  const leading = LEADING_TAGS.exec(raw)?.[0];
  if (!leading) return undefined;
  const tags = [...leading.matchAll(TIME_TAG)];
  return {
    tags: tags.map((m) => m[0]),
    times: tags.map(([, minutes, seconds, fraction]) => toMs(minutes!, seconds!, fraction)),
    text: raw.slice(leading.length),
  };
}

/** `[mm:ss.xx]` for a time in milliseconds (negative times as 0). */
export function timeTag(ms: number): string {
  const centiseconds = Math.max(0, Math.floor(ms / 10));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `[${pad(Math.floor(centiseconds / 6000))}:${pad(Math.floor(centiseconds / 100) % 60)}.${pad(centiseconds % 100)}]`;
}

function toMs(minutes: string, seconds: string, fraction = '0'): number {
  return (Number(minutes) * 60 + Number(seconds)) * 1000 + Math.round(Number(`0.${fraction}`) * 1000);
}

/** One line as a player shows it: when it starts, its text, and the translation that shares its time. */
export interface LyricLine {
  seconds: number;
  text: string;
  translation?: string;
}

/**
 * LRC text as time-ordered lines: a line with several time tags appears at each time; a second line at
 * the same time is the first one's translation; tag lines (`[ar:…]`) and empty lines are left out.
 */
export function parseLrc(lrc: string): LyricLine[] {
  const byTime = new Map<number, LyricLine>();
  for (const line of parse(lrc)) {
    const text = line.text.trim();
    if (!text) continue;
    for (const ms of line.times) {
      const seen = byTime.get(ms);
      if (!seen) byTime.set(ms, { seconds: ms / 1000, text });
      else seen.translation ??= text;
    }
  }
  return [...byTime.values()].sort((a, b) => a.seconds - b.seconds);
}

/** The index of the last line that has started at `seconds`, or -1 before the first. */
export function lineAt(lines: readonly LyricLine[], seconds: number): number {
  let found = -1;
  for (let i = 0; i < lines.length && lines[i]!.seconds <= seconds; i++) found = i;
  return found;
}
