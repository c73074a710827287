/**
 * The kept Spotify login, shared by every process through `platform_accounts` (platform
 * `streaming_a`): the credential is JSON `{accessToken, refreshToken, expiresAt, scope}`, the nickname
 * and avatar the account's profile. The tokens are secrets: they go to Spotify (and to the local
 * librespot) only, never into a log or an answer.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { platformAccounts } from '../../db/schema';
import { parseStoredValue } from '../../settings/stored-value';
import type { LoginProfile } from '../platform-login';
import type { SpotifyTokens } from './spotify-oauth';

const PLATFORM = 'streaming_a';

const CredentialSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  expiresAt: z.number(),
  scope: z.string(),
});

export interface SpotifyTokenStore {
  load(): Promise<SpotifyTokens | undefined>;
  /** Keeps new tokens; `profile` replaces the shown account when given (a new login). */
  save(tokens: SpotifyTokens, profile?: LoginProfile): Promise<void>;
}

export function storedSpotifyTokens(db: Db): SpotifyTokenStore {
  return {
    async load() {
      const row = await db.query.platformAccounts.findFirst({
        where: eq(platformAccounts.platform, PLATFORM),
      });
      const credential = CredentialSchema.safeParse(row && parseStoredValue(row.credential));
      return credential.success ? credential.data : undefined;
    },
    async save(tokens, profile) {
      const values = {
        credential: JSON.stringify(CredentialSchema.parse(tokens)),
        updatedAt: new Date(),
        ...(profile && { nickname: profile.nickname ?? null, avatarUrl: profile.avatarUrl ?? null }),
      };
      await db
        .insert(platformAccounts)
        .values({ platform: PLATFORM, ...values })
        .onConflictDoUpdate({ target: platformAccounts.platform, set: values });
    },
  };
}
