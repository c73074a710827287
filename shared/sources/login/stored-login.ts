/**
 * The stored-login store every platform with a shared login shares: its credential is the row of
 * `platform_accounts` named by its value, read through the platform's own parser (which cookie names
 * make a login). No row, or one the parser does not read as a login, is "not logged in": the adapter
 * then works anonymously. The credential is a secret: it goes to the platform only, never to a log.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { platformAccounts } from '../../db/schema';
import type { Platform } from '../../domain/platforms';

/** The stored login now: read on every use, so a new login applies at once. */
export type LoginLookup<Login> = () => Promise<Login | undefined>;

export function storedLogin<Login>(
  db: Db,
  platform: Platform,
  parse: (credential: string) => Login | undefined,
): LoginLookup<Login> {
  return async () => {
    const row = await db.query.platformAccounts.findFirst({ where: eq(platformAccounts.platform, platform) });
    return row ? parse(row.credential) : undefined;
  };
}
