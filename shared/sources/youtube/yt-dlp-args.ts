/**
 * YTDLP_ARGS: extra options the admin gives every yt-dlp run of the `video_b` source (a JavaScript
 * runtime, extractor arguments, a proxy, a pause between requests…), split into words like a shell
 * would quote them but without one (shell-words.ts), and checked once at start-up. Options that would
 * break the source are refused with the reason: ones that change what yt-dlp prints (the source reads
 * one JSON answer from stdout), print something else instead, choose the format or the videos the
 * source asks for, or put a login on the command line, where every local user can read it (`ps`): a
 * password or user name, a Cookie or Authorization header, a proxy address with `user:password@`.
 *
 * Option names from yt-dlp/yt-dlp yt_dlp/options.py (commit 81ecd58, 2026-08-20). Its option parser
 * takes any unambiguous start of a long name (`--dump-single` is `--dump-single-json`) and clusters
 * of short options with a value glued to the last (`-qJ`, `-fbest`), so those are checked too. A
 * value that starts with "-" cannot be told from an option without yt-dlp's whole table: written as
 * `--option=value` it is never taken for one.
 */
import { splitShellWords } from '../../exec/shell-words';
import { err, ok, type Result } from '../../result';

interface RefusedGroup {
  options: readonly string[];
  why: string;
}

const REFUSED: readonly RefusedGroup[] = [
  {
    options: [
      ...[
        '-J',
        '--dump-single-json',
        '-j',
        '--dump-json',
        '--print-json',
        '-O',
        '--print',
        '--print-to-file',
      ],
      ...['-g', '--get-url', '-e', '--get-title', '--get-id', '--get-thumbnail', '--get-description'],
      ...['--get-duration', '--get-filename', '--get-format', '--print-traffic', '--dump-pages'],
    ],
    why: 'would change what yt-dlp prints, which the bot reads as one JSON answer',
  },
  {
    options: [
      ...['-F', '--list-formats', '--list-subs', '--list-thumbnails', '--list-extractors'],
      ...['--extractor-descriptions', '--list-impersonate-targets', '--ap-list-mso'],
      ...['-h', '--help', '--version', '-U', '--update', '--update-to'],
    ],
    why: 'would make yt-dlp print something else instead of the video',
  },
  { options: ['-f', '--format'], why: 'would override the audio format the bot chooses' },
  {
    options: [
      ...[
        '--flat-playlist',
        '--no-flat-playlist',
        '--yes-playlist',
        '--no-playlist',
        '-I',
        '--playlist-items',
      ],
      ...['--playlist-start', '--playlist-end', '--playlist-reverse', '--playlist-random'],
      ...['-a', '--batch-file', '--load-info-json'],
    ],
    why: 'would change which videos yt-dlp answers for',
  },
  { options: ['--no-simulate'], why: 'would make yt-dlp download the files' },
  { options: ['--cookies'], why: 'is set by YTDLP_COOKIES: give the cookies file there' },
  {
    options: [
      ...['-p', '--password', '-2', '--twofactor', '--video-password', '--ap-password'],
      '--client-certificate-password',
    ],
    why: 'would put a secret on the command line, where every local user can read it: keep it in a yt-dlp config file (--config-locations) or a .netrc file',
  },
  {
    options: ['-u', '--username', '--ap-username'],
    why: 'would put a login on the command line, where every local user can read it: keep it in a yt-dlp config file (--config-locations) or a .netrc file',
  },
];

/** Why each refused option is refused, by its name. */
const WHY = new Map(REFUSED.flatMap(({ options, why }) => options.map((option) => [option, why] as const)));
const REFUSED_LONG = [...WHY.keys()].filter((option) => option.startsWith('--'));
/** Long names that are options of their own although a refused name starts with them. */
const WHOLE_OPTIONS = new Set(['--client-certificate']);
/** Short options that take a value: in a cluster, what follows one of them is its value. */
const SHORT_WITH_VALUE = new Set([...'tIup2fSNrROaPo']);
/** A header that carries a login. */
const SECRET_HEADER = /^\s*(?:cookie|authorization)\s*:/i;
/** An address with a user name or password before its host (`socks5://user:pass@host`, `user@host`). */
const USERINFO = /^(?:[a-z][a-z\d+.-]*:\/\/)?[^/?#]*@/i;
const PROXY_WHY =
  'with a user name or password in its address would put them on the command line, where every local user can read it: set the proxy in a yt-dlp config file (--config-locations)';

/** Options allowed, but not with a value that carries a login: the test for such a value, and why. */
const SECRET_VALUES: readonly { option: string; holdsSecret: (value: string) => boolean; why: string }[] = [
  {
    option: '--add-headers',
    holdsSecret: (value) => SECRET_HEADER.test(value),
    why: 'with a Cookie or Authorization header would put a secret on the command line, where every local user can read it: give cookies with YTDLP_COOKIES',
  },
  { option: '--proxy', holdsSecret: (value) => USERINFO.test(value), why: PROXY_WHY },
  { option: '--geo-verification-proxy', holdsSecret: (value) => USERINFO.test(value), why: PROXY_WHY },
];

/** The words of YTDLP_ARGS (unset or blank: none), or why they cannot be used. */
export function parseYtDlpArgs(text: string | undefined): Result<string[]> {
  const split = splitShellWords(text ?? '');
  if (!split.ok) return err(`${split.error} (quote as in a shell: '…', "…" or \\)`);
  const words = split.value;
  for (const [i, word] of words.entries()) {
    const refused = refusal(word, words[i + 1]);
    if (refused) return err(refused);
  }
  return ok(words);
}

function refusal(word: string, next: string | undefined): string | undefined {
  if (word === '--') return '"--" would end the options, and what follows would be taken for videos';
  if (word.startsWith('--')) return longRefusal(word, next);
  if (word.startsWith('-') && word.length > 1) return shortRefusal(word);
  return undefined;
}

function longRefusal(word: string, next: string | undefined): string | undefined {
  const [name = word, ...glued] = word.split('=');
  const meant = WHY.has(name)
    ? name
    : WHOLE_OPTIONS.has(name)
      ? undefined
      : REFUSED_LONG.find((option) => option.startsWith(name));
  if (meant) return `${name === meant ? meant : `${name} (${meant})`} ${WHY.get(meant)}`;
  const value = glued.length > 0 ? glued.join('=') : (next ?? '');
  const secret = SECRET_VALUES.find(
    ({ option, holdsSecret }) => name.length > 2 && option.startsWith(name) && holdsSecret(value),
  );
  return secret && `${secret.option} ${secret.why}`;
}

function shortRefusal(word: string): string | undefined {
  for (const letter of word.slice(1)) {
    const option = `-${letter}`;
    const why = WHY.get(option);
    if (why && word === option) return `${option} ${why}`;
    if (why)
      return `${option} (in ${word}) ${why} (if ${word} is the value of the option before it, write that one as --option=value)`;
    if (SHORT_WITH_VALUE.has(letter)) return undefined;
  }
  return undefined;
}
