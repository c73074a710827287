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
  return cachedBriefly((path: string) => path, ask);
}

/** `ask` (which never throws) behind a cache of STATUS_MAX_AGE_MS, by the key of what it is asked about. */
export function cachedBriefly<A, T>(
  keyOf: (about: A) => string,
  ask: (about: A) => Promise<T>,
): (about: A) => Promise<T> {
  const checked = new Map<string, { answer: Promise<T>; atMs: number }>();
  return (about) => {
    const now = Date.now();
    const key = keyOf(about);
    const cached = checked.get(key);
    if (cached && now - cached.atMs < STATUS_MAX_AGE_MS) return cached.answer;
    const answer = ask(about);
    checked.set(key, { answer, atMs: now });
    return answer;
  };
}
