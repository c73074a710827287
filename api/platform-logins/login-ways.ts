/**
 * The login ways of each platform, from the platform modules' `login` factories, and where a login that
 * worked is kept: the shared account of every bot (`platform_accounts`). A platform whose row has no
 * login way of the kind asked for is a 501.
 */
import type { Db } from '../../shared/db/client';
import { platformAccounts } from '../../shared/db/schema';
import type { Platform } from '../../shared/domain/constants';
import { logger } from '../../shared/logger';
import type { LoginProfile, PlatformLogin } from '../../shared/sources/platform-login';
import { platformLogin, type SourceContext } from '../../shared/sources/platform-modules';
import { ApiError } from '../errors';

const log = logger('api.platform-logins');

const LOGIN_WAYS = { qr: 'QR', cookie: 'cookie', sms: 'SMS' } as const;

/** The platform's `way` of logging in (its `refresh` is the daemon's); 501 when this build has none. */
export function loginWay<W extends keyof typeof LOGIN_WAYS>(
  platform: Platform,
  way: W,
  ctx: SourceContext,
): NonNullable<PlatformLogin[W]> {
  const login = platformLogin(platform, ctx)?.[way];
  if (!login)
    throw new ApiError(501, `${LOGIN_WAYS[way]} login for ${platform} is not available in this build`);
  return login;
}

/** Stores (or replaces) the shared login of `platform`. The credential is never logged. */
export async function storeSharedLogin(
  db: Db,
  platform: Platform,
  credential: string,
  profile: LoginProfile,
): Promise<void> {
  const account = {
    credential,
    nickname: profile.nickname ?? null,
    avatarUrl: profile.avatarUrl ?? null,
    updatedAt: new Date(),
  };
  await db
    .insert(platformAccounts)
    .values({ platform, ...account })
    .onConflictDoUpdate({ target: platformAccounts.platform, set: account });
  log.info({ platform, nickname: profile.nickname }, 'shared platform login stored');
}
