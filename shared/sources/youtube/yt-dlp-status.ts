/**
 * Whether the `yt-dlp` executable can run here, and which version it is (`yt-dlp --version` prints a
 * date-like version such as `2025.01.26`). yt-dlp is replaced by people independently of our releases,
 * so an answer is kept only briefly: an upgrade or a fresh install shows within that time, without a
 * restart. `/api/auth/status` reports it for `video_b` (SPEC: when missing, `loggedIn` is false and the
 * nickname says the tool is not installed); a yt-dlp that runs but lacks its JavaScript runtime or its
 * EJS component (yt-dlp-components.ts) stays "logged in", and the status says which part is missing.
 */

import { cachedBriefly, cachedToolStatus, STATUS_MAX_AGE_MS, type ToolStatus } from '../../exec/tool-status';
import { type Phrase, renderPhrase, say } from '../../i18n/phrases';
import type { Logger } from '../../logger';
import type { AccountStatus } from '../song-catalog';
import { DEFAULT_YTDLP, YtDlp } from './yt-dlp';
import { readComponents, type YtDlpComponents } from './yt-dlp-components';

export type YtDlpStatus = ToolStatus;
export { STATUS_MAX_AGE_MS };

/** `--version` answers at once; a slow one is as good as broken. */
const VERSION_TIMEOUT_MS = 10_000;
const VERSION_OUTPUT_BYTES = 4_096;
/** `--verbose` loads yt-dlp's extractors and asks each runtime for its version: a few seconds. */
const DEBUG_TIMEOUT_MS = 20_000;
const DEBUG_OUTPUT_BYTES = 64 * 1024;

const cachedStatus = cachedToolStatus((path) => askVersion(path));
const cachedComponents = cachedBriefly(
  (ytDlp: YtDlp) => ytDlp.key,
  async (ytDlp: YtDlp): Promise<YtDlpComponents | undefined> => {
    const lines = await ytDlp.debugLines();
    return lines.ok ? readComponents(lines.value) : undefined;
  },
);

/** yt-dlp at `path` (unset: `yt-dlp` on PATH): its version, or why it cannot run. Never throws. */
export const ytDlpStatus = (path: string = DEFAULT_YTDLP): Promise<YtDlpStatus> => cachedStatus(path);

/**
 * The JavaScript runtime and EJS component `ytDlp` finds with the admin's options, or undefined when
 * it does not say (it cannot run, or is older than both). Never throws.
 */
export const ytDlpComponents = (ytDlp: YtDlp): Promise<YtDlpComponents | undefined> =>
  cachedComponents(
    new YtDlp(
      ytDlp.path,
      { timeoutMs: DEBUG_TIMEOUT_MS, maxOutputBytes: DEBUG_OUTPUT_BYTES },
      ytDlp.settings,
    ),
  );

/**
 * The `video_b` login status: yt-dlp needs no login, so "logged in" means "yt-dlp runs"; the words
 * name a missing JavaScript runtime or EJS component.
 */
export async function ytDlpAccountStatus(ytDlp: YtDlp = new YtDlp()): Promise<AccountStatus> {
  const status = await ytDlpStatus(ytDlp.path);
  const phrase = status.available
    ? versionPhrase(status.version, await ytDlpComponents(ytDlp))
    : (status.phrase ?? say.ytDlpUnusable(status.reason));
  return { loggedIn: status.available, nickname: renderPhrase(phrase, 'en'), phrase };
}

function versionPhrase(version: string, components: YtDlpComponents | undefined): Phrase {
  if (!components) return say.ytDlpVersion(version);
  const { jsRuntime, ejs } = components;
  if (!jsRuntime && !ejs) return say.ytDlpNoJsRuntimeNorEjs(version);
  if (!jsRuntime) return say.ytDlpNoJsRuntime(version);
  if (!ejs) return say.ytDlpNoEjs(version);
  return say.ytDlpVersion(version);
}

async function askVersion(path: string): Promise<YtDlpStatus> {
  const ytDlp = new YtDlp(path, { timeoutMs: VERSION_TIMEOUT_MS, maxOutputBytes: VERSION_OUTPUT_BYTES });
  const output = await ytDlp.run(['--version']);
  if (!output.ok)
    return {
      available: false,
      reason: output.error.message,
      ...(output.error.phrase && { phrase: output.error.phrase }),
    };
  const version = output.value.trim().split(/\r?\n/)[0]?.trim();
  return version
    ? { available: true, version }
    : { available: false, reason: 'yt-dlp --version printed no version' };
}

/**
 * Says at start-up what the sources page will say of yt-dlp: a missing JavaScript runtime or EJS
 * component as a warning (YouTube then fails for many videos), anything else as information (a server
 * may well run without YouTube).
 */
export async function reportYtDlp(ytDlp: YtDlp, log: Logger): Promise<void> {
  const { phrase, nickname } = await ytDlpAccountStatus(ytDlp);
  const incomplete = phrase !== undefined && MISSING_PARTS.has(phrase.code);
  if (incomplete) log.warn({ ytDlp: ytDlp.path }, nickname ?? '');
  else log.info({ ytDlp: ytDlp.path }, nickname ?? '');
}

const MISSING_PARTS = new Set(['ytDlpNoJsRuntime', 'ytDlpNoEjs', 'ytDlpNoJsRuntimeNorEjs']);
