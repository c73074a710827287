/**
 * The `yt-dlp` executable as the `video_b` source uses it: one run with a deadline and an output cap,
 * whose JSON answer (`--dump-single-json`) is parsed with a zod schema. Every run carries the admin's
 * settings first: YTDLP_ARGS (checked at start-up, yt-dlp-args.ts) and a private copy of the
 * YTDLP_COOKIES file (yt-dlp-cookies.ts), so the source's own options come last and win. Every
 * failure comes back as a sentence a listener can read: a missing executable says yt-dlp is not
 * installed, a refusal says what YouTube refused and what the admin can do (yt-dlp-errors.ts).
 */
import type { z } from 'zod';
import { type ProcessLimits, type ProcessOutcome, runBounded } from '../../exec/bounded-process';
import { renderPhrase, say } from '../../i18n/phrases';
import { logger } from '../../logger';
import { err, ok, type Result } from '../../result';
import { copyCookies } from './yt-dlp-cookies';
import { describeFailure, type YtDlpFailure } from './yt-dlp-errors';

export type { YtDlpFailure } from './yt-dlp-errors';

/** What runs when YTDLP_PATH is unset: `yt-dlp` found on PATH. */
export const DEFAULT_YTDLP = 'yt-dlp';

/** The admin's settings for every run. */
export interface YtDlpSettings {
  /** YTDLP_COOKIES: a cookies.txt file (Netscape format) of a YouTube login. */
  cookies?: string | undefined;
  /** YTDLP_ARGS, as split and checked at start-up. */
  args?: readonly string[] | undefined;
}

const log = logger('sources.youtube.yt-dlp');

const DEFAULT_LIMITS: ProcessLimits = {
  timeoutMs: 30_000,
  // A flat playlist of 1000 entries is about 1.5 MB and one video with every format under 1 MB.
  maxOutputBytes: 16 * 1024 * 1024,
};

export class YtDlp {
  private readonly limits: ProcessLimits;

  constructor(
    readonly path: string = DEFAULT_YTDLP,
    limits: Partial<ProcessLimits> = {},
    readonly settings: YtDlpSettings = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /**
   * Runs yt-dlp with the admin's settings and `args` (never through a shell) and answers what it
   * printed on stdout.
   */
  async run(args: readonly string[]): Promise<Result<string, YtDlpFailure>> {
    const { cookies, args: extra = [] } = this.settings;
    const copy = cookies === undefined ? undefined : await copyCookies(cookies);
    if (copy && !copy.ok) return failure(copy.error);
    try {
      const cookieArgs = copy ? ['--cookies', copy.value.file] : [];
      return await this.runWith([...extra, ...cookieArgs, ...args]);
    } finally {
      await copy?.value.remove();
    }
  }

  /** What makes one yt-dlp differ from another here: its path and the admin's options. */
  get key(): string {
    return JSON.stringify([this.path, this.settings.args ?? []]);
  }

  /**
   * The `[debug]` lines yt-dlp prints about itself (its version, optional libraries, JavaScript
   * runtimes: yt-dlp-components.ts), from `--verbose` without a video, which then ends with a usage
   * error. The admin's options come first, as they may name a runtime or allow downloads.
   */
  async debugLines(): Promise<Result<string, YtDlpFailure>> {
    const outcome = await runBounded(this.path, [...(this.settings.args ?? []), '--verbose'], this.limits);
    return outcome.kind === 'exited' ? ok(outcome.stderr) : this.unfinished(outcome);
  }

  private unfinished(outcome: Exclude<ProcessOutcome, { kind: 'exited' }>): Result<never, YtDlpFailure> {
    switch (outcome.kind) {
      case 'notStarted':
        return notStarted(this.path, outcome.code, outcome.message);
      case 'timedOut':
        return failure(`yt-dlp did not answer within ${Math.round(this.limits.timeoutMs / 1000)} s`);
      case 'outputTooLarge':
        return failure(`yt-dlp printed more than ${Math.round(this.limits.maxOutputBytes / 1024)} KiB`);
    }
  }

  private async runWith(args: readonly string[]): Promise<Result<string, YtDlpFailure>> {
    const outcome = await runBounded(this.path, args, this.limits);
    switch (outcome.kind) {
      case 'notStarted':
      case 'timedOut':
      case 'outputTooLarge':
        return this.unfinished(outcome);
      case 'exited': {
        if (outcome.code === 0) return ok(outcome.stdout);
        const described = describeFailure(outcome.stderr);
        if (described) {
          const { reason, ...said } = described;
          log.info({ reason }, 'yt-dlp failed');
          return err(said);
        }
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

/** A missing executable says so as a phrase (the sources page words it in its language). */
function notStarted(path: string, code: string, message: string): Result<never, YtDlpFailure> {
  if (code === 'ENOENT') {
    const phrase = path === DEFAULT_YTDLP ? say.ytDlpMissing() : say.ytDlpMissingAt(path);
    return err({ message: renderPhrase(phrase, 'en'), notFound: false, phrase });
  }
  if (code === 'EACCES') return failure(`yt-dlp at ${path} is not executable`);
  return failure(`yt-dlp could not be started (${message})`);
}
