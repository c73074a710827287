/**
 * What kind of failure ended a decoder, told from ffmpeg's stderr (or from how it failed to start), so
 * the bot can say it in its reader's language with a phrase of its own (daemon/bots/play-failure.ts)
 * while ffmpeg's own words stay in the log. Pure: no Node modules.
 */
export const DECODE_PROBLEMS = [
  /** ffmpeg is not there or cannot be run. */
  'decoderMissing',
  /** The stream's server answered 401 or 403. */
  'sourceRefused',
  /** The stream's server answered 404, or a file is gone. */
  'sourceNotFound',
  /** The stream's server could not be reached (refused, no route, no such host, timed out). */
  'sourceUnreachable',
  /** The input is not audio in a format ffmpeg knows. */
  'formatUnsupported',
  /** Anything else. */
  'decodeFailed',
] as const;
export type DecodeProblem = (typeof DECODE_PROBLEMS)[number];

/** ffmpeg's words for each kind, as its demuxers and protocols print them (first match wins). */
const STDERR_PATTERNS: readonly [DecodeProblem, RegExp][] = [
  ['sourceRefused', /Server returned 40[13]\b|\b40[13] (Forbidden|Unauthorized)\b/i],
  ['sourceNotFound', /Server returned 404\b|\b404 Not Found\b|No such file or directory/i],
  [
    'sourceUnreachable',
    /Connection refused|Connection timed out|Network is unreachable|No route to host|Failed to resolve hostname|Name or service not known/i,
  ],
  [
    'formatUnsupported',
    // "<input>: Invalid argument" is how opening an input its extension's demuxer cannot read ends.
    /Invalid data found when processing input|Failed to read frame size|could not find codec parameters|Unknown input format|does not contain any stream|Decoder \(codec .+\) not found|Unsupported codec|: Invalid argument$/im,
  ],
];

/** The kind of an ffmpeg that ran and failed, from what it wrote to stderr. */
export const decodeProblemOf = (stderr: string): DecodeProblem =>
  STDERR_PATTERNS.find(([, pattern]) => pattern.test(stderr))?.[0] ?? 'decodeFailed';
