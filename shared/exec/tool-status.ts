/**
 * Whether an outside executable (yt-dlp, librespot) can run here, remembered briefly per path. People
 * install and replace these tools apart from our releases, so an answer is trusted only for a short
 * while: an upgrade or a fresh install shows without a restart, and a busy server does not spawn
 * `--version` for every request.
 */
import type { Phrase } from '../i18n/phrases';

export type ToolStatus =
  | { available: true; version: string }
  /** `phrase`: the reason as a phrase, where the tool's runner has one. */
  | { available: false; reason: string; phrase?: Phrase };

/** How long an answer is trusted before the tool is asked again. */
export const STATUS_MAX_AGE_MS = 30_000;

/** `ask` (which never throws) behind a per-path cache of STATUS_MAX_AGE_MS. */
export function cachedToolStatus(
  ask: (path: string) => Promise<ToolStatus>,
): (path: string) => Promise<ToolStatus> {
  const checked = new Map<string, { status: Promise<ToolStatus>; atMs: number }>();
  return (path) => {
    const now = Date.now();
    const cached = checked.get(path);
    if (cached && now - cached.atMs < STATUS_MAX_AGE_MS) return cached.status;
    const status = ask(path);
    checked.set(path, { status, atMs: now });
    return status;
  };
}
