/**
 * Whether librespot can run here, and which version it is (`librespot --version` prints
 * `librespot 0.7.1 <sha> (Built on …)`). Like yt-dlp it is installed and replaced by people apart
 * from our releases, so an answer is trusted only briefly: an install shows without a restart.
 * `/api/spotify/status` reports it as `binaryAvailable`, and a play asks it first so a missing
 * sidecar is a readable reason instead of a failed stream.
 */
import { runBounded } from '../../exec/bounded-process';
import { cachedToolStatus, type ToolStatus } from '../../exec/tool-status';
import { DEFAULT_LIBRESPOT, notInstalledMessage } from './librespot';

export type LibrespotStatus = ToolStatus;

const VERSION_LIMITS = { timeoutMs: 10_000, maxOutputBytes: 4_096 };

const cachedStatus = cachedToolStatus((path) => askVersion(path));

/** librespot at `path` (unset: `librespot` on PATH): its version, or why it cannot run. Never throws. */
export const librespotStatus = (path: string = DEFAULT_LIBRESPOT): Promise<LibrespotStatus> =>
  cachedStatus(path);

async function askVersion(path: string): Promise<LibrespotStatus> {
  const outcome = await runBounded(path, ['--version'], VERSION_LIMITS);
  switch (outcome.kind) {
    case 'notStarted':
      return { available: false, reason: notInstalledMessage(path, outcome.code, outcome.message) };
    case 'timedOut':
    case 'outputTooLarge':
      return { available: false, reason: `librespot at ${path} did not answer --version` };
    case 'exited': {
      const version = /librespot\s+(\S+)/.exec(outcome.stdout)?.[1];
      return outcome.code === 0 && version
        ? { available: true, version }
        : { available: false, reason: `librespot at ${path} did not answer --version` };
    }
  }
}
