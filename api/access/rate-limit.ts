/**
 * Fixed-window attempt counters in the database, so every api replica counts the same attempts.
 * One atomic upsert per attempt: no read-modify-write race between replicas.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Db } from '../../shared/db/client';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { forwardedClientAddress, type ProxyTrust } from '../middleware/client-view';

export interface RateLimit {
  name: string;
  max: number;
  windowMs: number;
}

export const LOGIN_LIMIT: RateLimit = { name: 'login', max: 5, windowMs: 60_000 };
export const SETUP_LIMIT: RateLimit = { name: 'setup', max: 3, windowMs: 60_000 };

/** The client address: the proxy's first hop behind a trusted proxy (client-view.ts), else the socket peer. */
export function clientAddress(c: Context<AppEnv>, trust: ProxyTrust): string {
  const forwarded = forwardedClientAddress(c, trust);
  if (forwarded) return forwarded;
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // No socket (requests handed to app.fetch in-process): all such callers share one counter.
    return 'local';
  }
}

/** Counts one attempt; throws 429 once the window's allowance is used up. */
export async function consumeAttempt(db: Db, limit: RateLimit, client: string): Promise<void> {
  const now = Date.now();
  const windowStartedBefore = now - limit.windowMs;
  const key = `${limit.name}:${client}`;
  const result = await db.$client.execute({
    sql: `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
          ON CONFLICT(key) DO UPDATE SET
            count = CASE WHEN window_start <= ? THEN 1 ELSE count + 1 END,
            window_start = CASE WHEN window_start <= ? THEN excluded.window_start ELSE window_start END
          RETURNING count`,
    args: [key, now, windowStartedBefore, windowStartedBefore],
  });
  const count = Number(result.rows[0]?.count ?? 0);
  if (count > limit.max) throw new ApiError(429, `too many ${limit.name} attempts; try again in a minute`);
}

/** Drops windows that ended long ago, so the table does not grow with every address ever seen. */
export async function pruneRateLimits(db: Db, olderThanMs = 3_600_000): Promise<void> {
  await db.run(sql`DELETE FROM rate_limits WHERE window_start < ${Date.now() - olderThanMs}`);
}
