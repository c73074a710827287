/**
 * QQ Music lyrics as one LRC text. `GetPlayLyricInfo` (asked without `crypt`) answers the original LRC
 * (`lyric`) and its translation (`trans`) base64-encoded; the translation marks a line it leaves
 * untranslated with the text `//`. Merging the two (each translation line right after the original
 * line of the same time) is the same job for every platform, so it is NetEase's `mergeLyrics`.
 *
 * Answer shape from jsososo/QQMusicApi (routes/lyric.js: base64 `lyric` and `trans`) and
 * L-1124/QQMusicApi (qqmusic_api/models/lyric.py: `lyric`, `trans`).
 */
import { mergeLyrics } from '../lrc';

/** A translation line standing for "no translation here": only time tags and `//`. */
const UNTRANSLATED = /^(?:\[[^\]]*\])+\/\/\s*$/;

/** The LRC text, or undefined when the song has no lyrics. */
export function lyricsToLrc(lyric: string, trans: string): string | undefined {
  const translation = decode(trans)
    .split(/\r?\n/)
    .filter((line) => !UNTRANSLATED.test(line))
    .join('\n');
  return mergeLyrics(decode(lyric), translation);
}

const decode = (base64: string): string => Buffer.from(base64, 'base64').toString('utf8');
