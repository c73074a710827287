/**
 * A setting that holds a command line's extra arguments (YTDLP_ARGS), split into words the way a
 * POSIX shell would quote them, but without a shell: nothing is expanded or run (`$HOME`, `~`, `*`,
 * `$(…)` and `;` stay literal characters), since the words go straight to an executable's argv.
 *
 * Quoting as in POSIX "Shell Command Language" 2.2: a backslash keeps the next character literal (and
 * a backslash-newline joins lines); single quotes keep everything up to the next single quote; double
 * quotes keep everything but let a backslash escape `"`, `\`, `$`, `` ` `` and a newline.
 */
import { err, ok, type Result } from '../result';

const BLANK = /[ \t\r\n]/;
/** What a backslash escapes inside double quotes; before anything else it stays a backslash. */
const ESCAPED_IN_DOUBLE_QUOTES = new Set(['"', '\\', '$', '`', '\n']);

export function splitShellWords(text: string): Result<string[]> {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const add = (chars: string) => {
    word = (word ?? '') + chars;
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (BLANK.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= text.length) return err('ends with a lone backslash');
      if (text[i + 1] !== '\n') add(text[i + 1] as string);
      i += 2;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return err(`has a ' that is never closed`);
      add(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      const closed = readDoubleQuoted(text, i + 1);
      if (!closed) return err('has a " that is never closed');
      add(closed.value);
      i = closed.end + 1;
    } else {
      add(c);
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return ok(words);
}

/** The text of a double-quoted part starting at `start`, and the index of its closing quote. */
function readDoubleQuoted(text: string, start: number): { value: string; end: number } | undefined {
  let value = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') return { value, end: i };
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && ESCAPED_IN_DOUBLE_QUOTES.has(next)) {
      if (next !== '\n') value += next;
      i++;
    } else value += c;
  }
  return undefined;
}
