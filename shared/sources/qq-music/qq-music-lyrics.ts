/**
 * QQ Music lyrics as one LRC text. `GetPlayLyricInfo` (asked with `crypt: 1`, as the phone app asks)
 * answers the original LRC (`lyric`) and its translation (`trans`) encrypted (qrc-crypt.ts); the
 * translation marks a line it leaves untranslated with the text `//`. Merging the two (each translation
 * line right after the original line of the same time) is the same job for every platform, so it is
 * NetEase's `mergeLyrics`.
 *
 * Answer shape from L-1124/QQMusicApi (qqmusic_api/models/lyric.py `GetLyricResponse`: `lyric`,
 * `trans`, decrypted as they arrive).
 */
import { err, ok, type Result } from '../../result';
import { mergeLyrics } from '../lrc';
import { qrcDecrypt } from './qrc-crypt';

/** A translation line standing for "no translation here": only time tags and `//`. */
const UNTRANSLATED = /^(?:\[[^\]]*\])+\/\/\s*$/;

/** The LRC text, undefined when the song has no lyrics; the sentence saying they did not decrypt. */
export function decryptedLrc(lyric: string, trans: string): Result<string | undefined> {
  const original = qrcDecrypt(lyric);
  const translated = qrcDecrypt(trans);
  if (original === undefined || translated === undefined)
    return err('QQ Music sent lyrics that could not be decrypted');
  const translation = translated
    .split(/\r?\n/)
    .filter((line) => !UNTRANSLATED.test(line))
    .join('\n');
  return ok(mergeLyrics(original, translation));
}
