/**
 * Whether each music platform works from this server, for the admins' Settings panel
 * (`GET /api/music/sources/status`): a cheap probe of the platform's address (its registry row's
 * `probeUrl`, any HTTP answer counts), then its shared login's status from its catalog. Every check is
 * bounded, all run at once, and an answer is kept for a while so the panel and the music home asking
 * together, or again, never hammer the platforms.
 */
import { type Platform, platformFacts } from '../../shared/domain/platforms';
import { valueWithin } from '../../shared/settle-within';
import type { Catalogs } from '../../shared/sources/platform-modules';

export const PROBE_TIMEOUT_MS = 3000;
export const STATUS_TTL_MS = 30_000;

export interface SourceStatus {
  platform: Platform;
  reachable: boolean;
  loggedIn?: boolean;
  error?: string;
}

export interface SourceStatusOptions {
  timeoutMs?: number;
  ttlMs?: number;
  now?: () => number;
}

export class SourceStatusChecker {
  private readonly answers = new Map<Platform, { at: number; status: Promise<SourceStatus> }>();
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly catalogs: Catalogs,
    options: SourceStatusOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
    this.ttlMs = options.ttlMs ?? STATUS_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * The status of each platform that has something to check (an address of its own or an account), in
   * the order given; a recent answer is reused (in flight included).
   */
  statusOf(platforms: readonly Platform[]): Promise<SourceStatus[]> {
    const checkable = platforms.filter(
      (platform) => platformFacts(platform).probeUrl || this.catalogs.get(platform)?.accountStatus,
    );
    return Promise.all(
      checkable.map((platform) => {
        const kept = this.answers.get(platform);
        if (kept && this.now() - kept.at < this.ttlMs) return kept.status;
        const status = this.check(platform);
        this.answers.set(platform, { at: this.now(), status });
        return status;
      }),
    );
  }

  private async check(platform: Platform): Promise<SourceStatus> {
    const { name, probeUrl, logins } = platformFacts(platform);
    if (probeUrl && !(await this.answersAtAll(probeUrl)))
      return { platform, reachable: false, error: `${name} could not be reached from this server` };
    const pending = this.catalogs.get(platform)?.accountStatus?.();
    // A platform on the internet without logins needs no more than the probe; one that is not on the
    // internet (a Jellyfin server, uploads) is reachable when its own status answers.
    if (!pending || (probeUrl && logins.length === 0)) return { platform, reachable: true };
    const account = await valueWithin(pending, this.timeoutMs);
    if (!account)
      return {
        platform,
        reachable: !!probeUrl,
        error: `${name} did not answer within ${this.timeoutMs / 1000} s`,
      };
    if (!account.ok) return { platform, reachable: !!probeUrl, error: account.error };
    return logins.length
      ? { platform, reachable: true, loggedIn: account.value.loggedIn }
      : { platform, reachable: true };
  }

  /** Whether the address answers at all within the time limit (a refusal, a redirect or a 404 count). */
  private async answersAtAll(url: string): Promise<boolean> {
    try {
      const response = await fetch(url, {
        method: 'HEAD',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // Nothing of the answer is read; its body (none, for a HEAD) is let go without waiting on it.
      response.body?.cancel().catch(() => undefined);
      // A network error may also come back as a response of status 0 (`Response.error()`): no answer.
      return response.status > 0;
    } catch {
      return false;
    }
  }
}
