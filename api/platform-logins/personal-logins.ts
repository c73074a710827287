/**
 * /api/me/music/<platform>: the caller's own account of the platform whose facts offer a personal
 * login, linked by QR code into `personal_links` (SPEC Player rule 8: FM the caller starts through the
 * API plays as it). Each account sees and changes only its own link; the linked credential never
 * leaves the server.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import * as routes from '../../openapi/routes/personal-logins';
import { personalLinks } from '../../shared/db/schema';
import { PERSONAL_LOGIN_PLATFORM } from '../../shared/domain/platforms';
import type { LoginProfile } from '../../shared/sources/platform-login';
import { platformLogin, type SourceContext } from '../../shared/sources/platform-modules';
import { type Principal, principalOf } from '../access/principal';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { platformFailure } from '../music/platform-failure';
import { loginWay } from './login-ways';
import { QrAttempts } from './qr-attempts';

const PLATFORM = PERSONAL_LOGIN_PLATFORM;

/** Links belong to accounts; the chat service acts for voice-server users, who have none. */
function ownerOf(principal: Principal): string {
  if (principal.credential.kind === 'service') throw new ApiError(403, 'personal links belong to accounts');
  return principal.userId;
}

export function personalLoginRoutes({ db }: AppDeps, ctx: SourceContext) {
  const attempts = new QrAttempts(db);
  const ownLink = (userId: string) =>
    and(eq(personalLinks.userId, userId), eq(personalLinks.platform, PLATFORM));

  const link = async (userId: string, credential: string, profile: LoginProfile) => {
    const linked = {
      credential,
      nickname: profile.nickname ?? null,
      avatarUrl: profile.avatarUrl ?? null,
      linkedAt: new Date(),
    };
    await db
      .insert(personalLinks)
      .values({ userId, platform: PLATFORM, ...linked })
      .onConflictDoUpdate({ target: [personalLinks.userId, personalLinks.platform], set: linked });
  };

  /** Who a linked credential logs in as, asked of the platform. */
  const statusOf = (credential: string) => {
    const status = platformLogin(PLATFORM, ctx)?.status;
    if (!status) throw new ApiError(501, `the status of a ${PLATFORM} login is not available in this build`);
    return status(credential);
  };

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(routes.getPersonalLink, async (c) => {
      const row = await db.query.personalLinks.findFirst({ where: ownLink(ownerOf(principalOf(c))) });
      if (!row) return c.json({ linked: false, loggedIn: false }, 200);
      const status = await statusOf(row.credential);
      if (!status.ok) throw platformFailure(PLATFORM, status.error);
      return c.json({ linked: true, ...status.value }, 200);
    })

    .openapi(routes.startPersonalQr, async (c) => {
      const owner = ownerOf(principalOf(c));
      return c.json(await attempts.start(PLATFORM, loginWay(PLATFORM, 'qr', ctx), owner), 200);
    })

    .openapi(routes.pollPersonalQr, async (c) => {
      const owner = ownerOf(principalOf(c));
      const status = await attempts.poll(
        c.req.valid('query').key,
        PLATFORM,
        owner,
        loginWay(PLATFORM, 'qr', ctx),
        (credential, profile) => link(owner, credential, profile),
      );
      return c.json({ status }, 200);
    })

    .openapi(routes.deletePersonalLink, async (c) => {
      await db.delete(personalLinks).where(ownLink(ownerOf(principalOf(c))));
      return c.json({ ok: true as const }, 200);
    });
}
