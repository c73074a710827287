/**
 * The `yt-dlp` executable as the `video_b` source uses it: one run with a deadline and an output cap,
 * whose JSON answer (`--dump-single-json`) is parsed with a zod schema. Every failure comes back as a
 * sentence a listener can read: a missing executable says yt-dlp is not installed, a refusal is
 * yt-dlp's own last `ERROR:` line ("yt-dlp: ERROR: Video unavailable").
 *
 * Error lines look like `ERROR: [youtube] <id>: Video unavailable` (yt-dlp's `ExtractorError` prefixes
 * the extractor name and the id; unexpected ones end with a "please report this issue" tail), see
 * yt-dlp/yt-dlp: yt_dlp/utils/_utils.py (`ExtractorError`) and yt_dlp/YoutubeDL.py (`report_error`).
 */
import type { z } from 'zod';
import { type ProcessLimits, runBounded } from '../../exec/bounded-process';
import { err, ok, type Result } from '../../result';

/** What runs when YTDLP_PATH is unset: `yt-dlp` found on PATH. */
export const DEFAULT_YTDLP = 'yt-dlp';

/** A run that did not give an answer. `notFound` marks yt-dlp saying the video or playlist does not exist. */
export interface YtDlpFailure {
  message: string;
  notFound: boolean;
}

const DEFAULT_LIMITS: ProcessLimits = {
  timeoutMs: 30_000,
  // A flat playlist of 1000 entries is about 1.5 MB and one video with every format under 1 MB.
  maxOutputBytes: 16 * 1024 * 1024,
};

/** yt-dlp's words for an id that names nothing (removed, private or never existing). */
const NOT_FOUND = /Video unavailable|does not exist|has been removed|Private video/i;
/** The tail yt-dlp adds to unexpected errors; a listener needs only the reason before it. */
const REPORT_TAIL = /;?\s*please report this issue on\b.*$/is;
const MAX_REASON_CHARS = 300;

export class YtDlp {
  private readonly limits: ProcessLimits;

  constructor(
    readonly path: string = DEFAULT_YTDLP,
    limits: Partial<ProcessLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Runs yt-dlp with `args` (never through a shell) and answers what it printed on stdout. */
  async run(args: readonly string[]): Promise<Result<string, YtDlpFailure>> {
    const outcome = await runBounded(this.path, args, this.limits);
    switch (outcome.kind) {
      case 'notStarted':
        return failure(notStartedMessage(this.path, outcome.code, outcome.message));
      case 'timedOut':
        return failure(`yt-dlp did not answer within ${Math.round(this.limits.timeoutMs / 1000)} s`);
      case 'outputTooLarge':
        return failure(`yt-dlp printed more than ${Math.round(this.limits.maxOutputBytes / 1024)} KiB`);
      case 'exited': {
        if (outcome.code === 0) return ok(outcome.stdout);
        const reason = lastError(outcome.stderr);
        if (reason) return err({ message: `yt-dlp: ${reason}`, notFound: NOT_FOUND.test(reason) });
        return failure(
          outcome.signal
            ? `yt-dlp was stopped (${outcome.signal})`
            : `yt-dlp failed (exit code ${outcome.code})`,
        );
      }
    }
  }

  /** Runs yt-dlp and reads its JSON answer with `schema`. */
  async json<T extends z.ZodType>(
    args: readonly string[],
    schema: T,
  ): Promise<Result<z.output<T>, YtDlpFailure>> {
    const output = await this.run(args);
    if (!output.ok) return output;
    let json: unknown;
    try {
      json = JSON.parse(output.value);
    } catch {
      return failure('yt-dlp answered with something that is not JSON');
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? ok(parsed.data) : failure('yt-dlp answered in an unexpected shape');
  }
}

function failure(message: string): Result<never, YtDlpFailure> {
  return err({ message, notFound: false });
}

function notStartedMessage(path: string, code: string, message: string): string {
  if (code === 'ENOENT')
    return path === DEFAULT_YTDLP
      ? 'yt-dlp is not installed (no yt-dlp on PATH; install it or set YTDLP_PATH)'
      : `yt-dlp is not installed (nothing at ${path}; fix YTDLP_PATH)`;
  if (code === 'EACCES') return `yt-dlp at ${path} is not executable`;
  return `yt-dlp could not be started (${message})`;
}

/**
 * The sentence stderr ends with: the last `ERROR:` line without the `[extractor] id:` prefix (the caller
 * knows what it asked for), else the last line printed.
 */
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
