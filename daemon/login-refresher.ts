/**
 * Keeps the stored platform logins alive (SPEC "Platform accounts": refreshed where the platform
 * allows): at daemon start and then every 12 hours, every shared login (`platform_accounts`) and every
 * personal one (`personal_links`) whose platform's login can `refresh` is renewed with the platform.
 *
 * - A renewed credential replaces the stored one, but only if the row still holds what was read: the
 *   shared row's `updated_at`, the personal row's credential (it has no update time; `linked_at` says
 *   when the user linked). Several daemons refreshing at once, or someone logging in meanwhile, thus
 *   never have a stale credential written over a newer one.
 * - A login the platform no longer accepts stays as it is: its status already reads `loggedIn: false`
 *   (the catalogs' `accountStatus`), and someone logs in again. One warning says so.
 * - A platform that cannot be reached changes nothing; the next round tries again.
 *
 * Credentials are secrets: log lines name the platform (and the user's id), never a credential.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../shared/db/client';
import { personalLinks, platformAccounts } from '../shared/db/schema';
import { PLATFORMS } from '../shared/domain/platforms';
import type { Logger } from '../shared/logger';
import type { Result } from '../shared/result';
import type { RefreshOutcome } from '../shared/sources/platform-login';
import { platformLogin, type SourceContext } from '../shared/sources/platform-modules';

export const REFRESH_INTERVAL_MS = 12 * 60 * 60 * 1000;

type Refresh = (credential: string) => Promise<Result<RefreshOutcome>>;

export interface LoginRefresherDeps {
  ctx: SourceContext;
  log: Logger;
  /** How a platform renews its logins; defaults to the platform module's `login(ctx).refresh`. */
  refreshOf?: (platform: string) => Refresh | undefined;
  intervalMs?: number;
}

/** What one round did, by row: counted for the tests and the round's log line. */
export interface RefreshRound {
  renewed: number;
  /** Nothing to store: the platform cannot refresh, or kept the credential as it was. */
  unchanged: number;
  expired: number;
  failed: number;
  /** Renewed, but the row had changed meanwhile: the newer value was kept. */
  superseded: number;
}

/** The modules' refresh for a platform value, if that platform has one. */
function modulesRefresh(ctx: SourceContext): (platform: string) => Refresh | undefined {
  const refreshes = new Map<string, Refresh>();
  for (const platform of PLATFORMS) {
    const login = platformLogin(platform, ctx);
    if (login?.refresh) refreshes.set(platform, login.refresh.bind(login));
  }
  return (platform) => refreshes.get(platform);
}

export class LoginRefresher {
  private timer: NodeJS.Timeout | undefined;
  private readonly refreshOf: (platform: string) => Refresh | undefined;

  constructor(private readonly deps: LoginRefresherDeps) {
    this.refreshOf = deps.refreshOf ?? modulesRefresh(deps.ctx);
  }

  /** Runs a round now (not awaited) and then every interval; the timer does not keep the process up. */
  start(): void {
    if (this.timer) return;
    void this.safeRound();
    this.timer = setInterval(() => void this.safeRound(), this.deps.intervalMs ?? REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Renews every stored login whose platform allows it, one after the other. */
  async round(): Promise<RefreshRound> {
    const counts: RefreshRound = { renewed: 0, unchanged: 0, expired: 0, failed: 0, superseded: 0 };
    const { db } = this.deps.ctx;
    for (const row of await db.select().from(platformAccounts))
      counts[await this.renew(row, {}, (credential) => storeShared(db, row, credential))]++;
    for (const row of await db.select().from(personalLinks))
      counts[
        await this.renew(row, { userId: row.userId }, (credential) => storePersonal(db, row, credential))
      ]++;
    return counts;
  }

  /** Renews one stored login; `store` writes the renewed credential unless the row changed meanwhile. */
  private async renew(
    row: { platform: string; credential: string },
    who: { userId?: string },
    store: (credential: string) => Promise<boolean>,
  ): Promise<keyof RefreshRound> {
    const refresh = this.refreshOf(row.platform);
    if (!refresh) return 'unchanged';
    const about = { platform: row.platform, ...who };
    const outcome = await refresh(row.credential);
    if (!outcome.ok) {
      this.deps.log.warn({ ...about, reason: outcome.error }, 'could not refresh a platform login');
      return 'failed';
    }
    if (outcome.value === 'expired') {
      this.deps.log.warn(
        about,
        'the platform no longer accepts a stored login; it shows as logged out until someone logs in again',
      );
      return 'expired';
    }
    if (outcome.value.credential === row.credential) return 'unchanged';
    if (await store(outcome.value.credential)) return 'renewed';
    this.deps.log.info(about, 'a platform login changed while it was refreshed; the newer one was kept');
    return 'superseded';
  }

  private async safeRound(): Promise<void> {
    try {
      const counts = await this.round();
      this.deps.log.info(counts, 'platform logins refreshed');
    } catch (error) {
      this.deps.log.warn({ err: error }, 'the platform login refresh failed');
    }
  }
}

/** Stores a renewed shared login unless the row changed since it was read; whether it did. */
async function storeShared(
  db: Db,
  read: { platform: string; updatedAt: Date },
  credential: string,
): Promise<boolean> {
  const updated = await db
    .update(platformAccounts)
    .set({ credential, updatedAt: new Date() })
    .where(and(eq(platformAccounts.platform, read.platform), eq(platformAccounts.updatedAt, read.updatedAt)))
    .returning({ platform: platformAccounts.platform });
  return updated.length > 0;
}

/** Stores a renewed personal login unless the row changed since it was read; whether it did. */
async function storePersonal(
  db: Db,
  read: { userId: string; platform: string; credential: string },
  credential: string,
): Promise<boolean> {
  const updated = await db
    .update(personalLinks)
    .set({ credential })
    .where(
      and(
        eq(personalLinks.userId, read.userId),
        eq(personalLinks.platform, read.platform),
        eq(personalLinks.credential, read.credential),
      ),
    )
    .returning({ platform: personalLinks.platform });
  return updated.length > 0;
}
