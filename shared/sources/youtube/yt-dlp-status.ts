/**
 * Whether the `yt-dlp` executable can run here, and which version it is (`yt-dlp --version` prints a
 * date-like version such as `2025.01.26`). yt-dlp is replaced by people independently of our releases,
 * so an answer is kept only briefly: an upgrade or a fresh install shows within that time, without a
 * restart. `/api/auth/status` reports it for `video_b` (SPEC: when missing, `loggedIn` is false and the
 * nickname says the tool is not installed).
 */

import { cachedToolStatus, STATUS_MAX_AGE_MS, type ToolStatus } from '../../exec/tool-status';
import { renderPhrase, say } from '../../i18n/phrases';
import type { AccountStatus } from '../song-catalog';
import { DEFAULT_YTDLP, YtDlp } from './yt-dlp';

export type YtDlpStatus = ToolStatus;
export { STATUS_MAX_AGE_MS };

/** `--version` answers at once; a slow one is as good as broken. */
const VERSION_TIMEOUT_MS = 10_000;
const VERSION_OUTPUT_BYTES = 4_096;

const cachedStatus = cachedToolStatus((path) => askVersion(path));

/** yt-dlp at `path` (unset: `yt-dlp` on PATH): its version, or why it cannot run. Never throws. */
export const ytDlpStatus = (path: string = DEFAULT_YTDLP): Promise<YtDlpStatus> => cachedStatus(path);

/** The `video_b` login status: yt-dlp needs no login, so "logged in" means "yt-dlp runs". */
export async function ytDlpAccountStatus(path?: string): Promise<AccountStatus> {
  const status = await ytDlpStatus(path);
  const phrase = status.available
    ? say.ytDlpVersion(status.version)
    : (status.phrase ?? say.ytDlpUnusable(status.reason));
  return { loggedIn: status.available, nickname: renderPhrase(phrase, 'en'), phrase };
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
