/**
 * What a failed yt-dlp run printed on stderr, as a sentence for the people who see it (a 502 `{error}`
 * at the api, a chat message when a song is skipped): the refusals YouTube commonly makes of a server
 * (the bot check, age, privacy, country, rate limits, and formats missing for want of a JavaScript
 * runtime or its EJS component) say what happened and what the admin can do; anything else is yt-dlp's own last `ERROR:`
 * line.
 *
 * yt-dlp's words, from yt-dlp/yt-dlp (commit 81ecd58, 2026-08-20): YouTube's playability reason with
 * a cookies hint for "Sign in to confirm you’re not a bot" and "Sign in to confirm your age"
 * (yt_dlp/extractor/youtube/_video.py, `_real_extract`; `_login_hint` in extractor/common.py), the
 * warning "No supported JavaScript runtime could be found", the EJS component's "Remote component(s)
 * challenge solver script … skipped" warning (extractor/youtube/jsc/_director.py) and the "Signature
 * solving failed" / "n challenge solving failed" warnings (`_video.py`), after which the formats are missing and the run
 * ends "Requested format is not available"; "Private video", "Video unavailable", "The playlist does
 * not exist."; the country refusal of `raise_geo_restricted` ("…not available from your location…",
 * "The uploader has not made this video available in your country"); and "This content isn't
 * available, try again later" (a rate limit). Error lines look like `ERROR: [youtube] <id>: <reason>`,
 * unexpected ones ending with a "please report this issue" tail (yt_dlp/utils/_utils.py).
 */

/** A run that did not give an answer. `notFound` marks yt-dlp saying the video or playlist does not exist. */
import type { Phrase } from '../../i18n/phrases';
export interface YtDlpFailure {
  message: string;
  notFound: boolean;
  /** The failure as a phrase where it has one (yt-dlp not installed), for a page in another language. */
  phrase?: Phrase;
}

interface Trouble {
  /** Tested against the error line. */
  seen: RegExp;
  /** Also needed: a warning printed before it (tested against the whole of stderr). */
  warned?: RegExp;
  message: string;
  notFound?: boolean;
}

/** What yt-dlp ends with when the formats a JavaScript challenge hides are missing. */
const FORMATS_MISSING = /Requested format is not available|Only images are available|No video formats found/i;

/** In order: the first that matches explains the failure. */
const TROUBLES: readonly Trouble[] = [
  {
    seen: /confirm you.?re not a bot/i,
    message:
      'YouTube asked yt-dlp to sign in to confirm it is not a bot, as it often does for servers: ' +
      'the admin can give yt-dlp the cookies of a YouTube login (a cookies.txt file named by YTDLP_COOKIES), and update yt-dlp',
  },
  {
    seen: /confirm your age|age-restricted|inappropriate for some users/i,
    message:
      'YouTube shows this video only to signed-in adults: the admin can give yt-dlp the cookies of an adult’s YouTube login with YTDLP_COOKIES',
  },
  {
    seen: /Private video/i,
    message: 'This YouTube video is private: only accounts its owner invited can watch it',
    notFound: true,
  },
  {
    seen: /not available from your location|not made this video available in your country|geo.?restrict/i,
    message:
      'YouTube does not offer this video in the server’s country: the admin can send yt-dlp through a proxy elsewhere ("--proxy URL" in YTDLP_ARGS)',
  },
  {
    seen: /content isn.?t available, try again later/i,
    message:
      'YouTube is limiting how often this server may ask, for up to an hour: try again later; the admin can slow yt-dlp down with "-t sleep" in YTDLP_ARGS',
  },
  {
    seen: /playlist does not exist/i,
    message: 'YouTube has no such playlist (it was removed, made private or never existed)',
    notFound: true,
  },
  {
    seen: /Video unavailable|This video (?:is unavailable|has been removed)|does not exist/i,
    message: 'YouTube has no such video any more (it was removed or never existed)',
    notFound: true,
  },
  // Without its JavaScript runtime or its EJS component (yt-dlp-components.ts) yt-dlp warns, goes on,
  // and fails when the formats it needs are missing; the warning says which part it lacked.
  {
    seen: FORMATS_MISSING,
    warned: /No supported JavaScript runtime/i,
    message:
      'yt-dlp could not read this YouTube video because it lacks a JavaScript runtime, which YouTube now requires: ' +
      'the admin can install deno (or node, named with "--js-runtimes node" in YTDLP_ARGS) as the yt-dlp wiki describes, and update yt-dlp',
  },
  {
    seen: FORMATS_MISSING,
    warned: /challenge solver script.* skipped|No usable challenge solver/i,
    message:
      'yt-dlp could not read this YouTube video because it lacks its EJS component (the challenge solver scripts its JavaScript runtime runs): ' +
      'the admin can install the yt-dlp-ejs package next to yt-dlp, or allow yt-dlp to download it with "--remote-components ejs:github" in YTDLP_ARGS',
  },
  {
    seen: FORMATS_MISSING,
    warned: /Signature solving failed|n challenge solving failed/i,
    message:
      'yt-dlp could not solve YouTube’s challenge for this video: the admin can check that yt-dlp has a JavaScript runtime (deno) and its EJS component (the yt-dlp-ejs package), and update yt-dlp',
  },
];

/** The tail yt-dlp adds to unexpected errors; a listener needs only the reason before it. */
const REPORT_TAIL = /;?\s*please report this issue on\b.*$/is;
const MAX_REASON_CHARS = 300;

/**
 * Why a run failed, from its stderr: a known refusal in plain words, else yt-dlp's last `ERROR:` line
 * (without the `[extractor] id:` prefix, since the caller knows what it asked for) or last line;
 * undefined when stderr is empty. `reason` is yt-dlp's own line, for the log.
 */
export function describeFailure(stderr: string): (YtDlpFailure & { reason: string }) | undefined {
  const reason = lastError(stderr);
  if (reason === undefined) return undefined;
  const known = /^ERROR:/.test(reason)
    ? TROUBLES.find((t) => t.seen.test(reason) && (t.warned?.test(stderr) ?? true))
    : undefined;
  return known
    ? { message: known.message, notFound: known.notFound ?? false, reason }
    : { message: `yt-dlp: ${reason}`, notFound: false, reason };
}

function lastError(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const line = lines.findLast((l) => l.startsWith('ERROR:')) ?? lines.at(-1);
  if (!line) return undefined;
  const reason = line
    .replace(/^ERROR:\s*\[[^\]]+\]\s*[^\s:]+:\s*/, 'ERROR: ')
    .replace(REPORT_TAIL, '')
    .trim();
  return reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason;
}
