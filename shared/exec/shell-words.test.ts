/**
 * Splitting a setting into argv words like a POSIX shell's quoting, without a shell: the cases of
 * POSIX 2.2 (backslash, single and double quotes, joined parts, empty words), nothing expanded, and
 * a readable error for quoting that never ends.
 */
import { describe, expect, it } from 'vitest';
import { splitShellWords } from './shell-words';

const words = (text: string) => {
  const split = splitShellWords(text);
  if (!split.ok) throw new Error(split.error);
  return split.value;
};

describe('splitShellWords', () => {
  it('splits on blanks of any length, tabs and newlines', () => {
    expect(words('  --js-runtimes   node\t--proxy\nsocks5://127.0.0.1:9050 ')).toEqual([
      '--js-runtimes',
      'node',
      '--proxy',
      'socks5://127.0.0.1:9050',
    ]);
    expect(words('')).toEqual([]);
    expect(words(' \t\n')).toEqual([]);
  });

  it('keeps single-quoted text as written, backslashes and double quotes included', () => {
    expect(words(`--extractor-args 'youtube:player_client=default,-web; x="1" \\n'`)).toEqual([
      '--extractor-args',
      'youtube:player_client=default,-web; x="1" \\n',
    ]);
  });

  it('lets a backslash escape only " \\ $ ` and newline inside double quotes', () => {
    expect(words(String.raw`"a \"b\" c\\d \$e \x"`)).toEqual([String.raw`a "b" c\d $e \x`]);
    expect(words('"one\\\ntwo"')).toEqual(['onetwo']);
  });

  it('makes a backslash keep the next character outside quotes, and join lines before a newline', () => {
    expect(words(String.raw`a\ b c\'d \"e\"`)).toEqual(['a b', "c'd", '"e"']);
    expect(words('--proxy \\\nhttp://p')).toEqual(['--proxy', 'http://p']);
  });

  it('joins adjacent quoted and plain parts into one word, and keeps empty quoted words', () => {
    expect(words(`--output='%(title)s'".%(ext)s" "" ''`)).toEqual(['--output=%(title)s.%(ext)s', '', '']);
  });

  it('expands and runs nothing: variables, globs, tildes, substitutions and separators stay literal', () => {
    expect(words('$HOME ~/x *.txt $(touch /tmp/pwned) `id` a;b c|d e&&f')).toEqual([
      '$HOME',
      '~/x',
      '*.txt',
      '$(touch',
      '/tmp/pwned)',
      '`id`',
      'a;b',
      'c|d',
      'e&&f',
    ]);
  });

  it('refuses quotes that never close and a lone backslash at the end, saying which', () => {
    expect(splitShellWords(`--proxy 'http://p`)).toEqual({
      ok: false,
      error: `has a ' that is never closed`,
    });
    expect(splitShellWords('--x "a\\"')).toEqual({ ok: false, error: 'has a " that is never closed' });
    expect(splitShellWords('--x a\\')).toEqual({ ok: false, error: 'ends with a lone backslash' });
  });
});
