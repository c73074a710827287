/**
 * The kept Jellyfin login, shared by every process through `platform_accounts` (platform
 * `library_a`): the credential is JSON `{serverUrl, userId, token}` and the nickname the user's name.
 * Sharing it matters: Jellyfin ends a device's previous token when the same device logs in again, so
 * processes that each logged in on their own would keep logging each other out. The token is a
 * secret: it is sent to that server only, never logged and never returned.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { platformAccounts } from '../../db/schema';
import { parseStoredValue } from '../../settings/stored-value';
import type { JellyfinLogin } from './jellyfin-login';

const PLATFORM = 'library_a';

export interface JellyfinSession extends JellyfinLogin {
  serverUrl: string;
}

export interface JellyfinSessionStore {
  load(): Promise<JellyfinSession | undefined>;
  save(session: JellyfinSession): Promise<void>;
}

const CredentialSchema = z.object({ serverUrl: z.string(), userId: z.string(), token: z.string() });

export function storedJellyfinSessions(db: Db): JellyfinSessionStore {
  return {
    async load() {
      const row = await db.query.platformAccounts.findFirst({
        where: eq(platformAccounts.platform, PLATFORM),
      });
      const credential = CredentialSchema.safeParse(row && parseStoredValue(row.credential));
      return credential.success ? { ...credential.data, userName: row?.nickname ?? '' } : undefined;
    },
    async save({ serverUrl, userId, token, userName }) {
      const values = {
        credential: JSON.stringify({ serverUrl, userId, token }),
        nickname: userName,
        avatarUrl: null,
        updatedAt: new Date(),
      };
      await db
        .insert(platformAccounts)
        .values({ platform: PLATFORM, ...values })
        .onConflictDoUpdate({ target: platformAccounts.platform, set: values });
    },
  };
}
