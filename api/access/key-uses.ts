/**
 * When each API key was last used (SPEC Authentication rule 3: "each use updates `lastUsedAt`").
 *
 * A use is noted in memory and written within FLUSH_DELAY_MS, every key noted meanwhile in one
 * statement: a script calling many times a second costs one write a second, not one per call (and
 * each write is a commit, which also makes every process read its principals again,
 * prepared-json-read.ts). The key list flushes before it reads, so it shows every use made through
 * this process; a use through another api process shows once that process has flushed.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../shared/db/client';
import { apiKeys } from '../../shared/db/schema';
import { logger } from '../../shared/logger';

const log = logger('api.auth');

export const KEY_USE_FLUSH_DELAY_MS = 1000;

export class KeyUses {
  /** Key id → when it was last used (epoch ms), not yet written. */
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** The write under way, so a flush resolves only once what was noted before it is stored. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  noted(keyId: string, at = Date.now()): void {
    this.pending.set(keyId, at);
    this.timer ??= setTimeout(() => void this.flush(), KEY_USE_FLUSH_DELAY_MS).unref();
  }

  /** Writes every use noted so far; resolves once they are stored (or the write failed and was logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: Map<string, number>): Promise<void> {
    if (batch.size === 0) return;
    const times = sql.join(
      [...batch].map(([id, at]) => sql`WHEN ${id} THEN ${at}`),
      sql` `,
    );
    try {
      // Never back in time: another api process may have written a later use meanwhile.
      await this.db
        .update(apiKeys)
        .set({ lastUsedAt: sql`max(coalesce(${apiKeys.lastUsedAt}, 0), CASE ${apiKeys.id} ${times} END)` })
        .where(inArray(apiKeys.id, [...batch.keys()]));
    } catch (error) {
      // Bookkeeping: a database that cannot take the write (locked, full) must not fail anything.
      log.warn({ err: error }, 'could not record when api keys were used');
    }
  }
}
