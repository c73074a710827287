/**
 * /api/auth: the platform logins every bot shares. Status comes from each platform's catalog; logins
 * are made through the platform modules' login ways (QR, cookie, SMS), each platform chosen by the
 * login kinds its facts name, and stored in `platform_accounts`. The credential never appears in an
 * answer or a log line.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import * as routes from '../../openapi/routes/platform-logins';
import type { Platform } from '../../shared/domain/constants';
import { logsInBy, PLATFORMS } from '../../shared/domain/platforms';
import { renderPhrase, say } from '../../shared/i18n/phrases';
import { readSettings } from '../../shared/settings/settings';
import { saysUnreachable } from '../../shared/sources/http/unreachable';
import { testJellyfinConnection } from '../../shared/sources/jellyfin/jellyfin-connection-test';
import type { Catalogs, SourceContext } from '../../shared/sources/platform-modules';
import type { AccountStatus } from '../../shared/sources/song-catalog';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { requestLocale } from '../locale';
import { platformFailure } from '../music/platform-failure';
import { loginWay, storeSharedLogin } from './login-ways';
import { QrAttempts } from './qr-attempts';

/** The platform whose shared login may be made by SMS: the SMS routes take no platform. */
const SMS_PLATFORM = PLATFORMS.find((p) => logsInBy(p, 'sms'));

export function platformLoginRoutes({ db }: AppDeps, ctx: SourceContext, catalogs: Catalogs) {
  const attempts = new QrAttempts(db);

  const accountStatus = async (platform: Platform): Promise<AccountStatus> => {
    const pending = catalogs.get(platform)?.accountStatus?.();
    if (!pending) return { loggedIn: false };
    const status = await pending;
    if (!status.ok) throw platformFailure(platform, status.error);
    return status.value;
  };

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(routes.getAccountStatus, async (c) => {
      const { platform } = c.req.valid('query');
      const { phrase, ...status } = await accountStatus(platform);
      // A status worded by the server (yt-dlp's) in the caller's language, with the phrase beside it.
      const worded = phrase && {
        nickname: renderPhrase(phrase, requestLocale(c)),
        code: phrase.code,
        params: phrase.params,
      };
      return c.json({ platform, ...status, ...worded }, 200);
    })

    .openapi(routes.startQrLogin, async (c) => {
      const { platform } = c.req.valid('json');
      return c.json(await attempts.start(platform, loginWay(platform, 'qr', ctx), null), 200);
    })

    .openapi(routes.pollQrLogin, async (c) => {
      const { key, platform } = c.req.valid('query');
      const status = await attempts.poll(
        key,
        platform,
        null,
        loginWay(platform, 'qr', ctx),
        (credential, profile) => storeSharedLogin(db, platform, credential, profile),
      );
      return c.json({ status }, 200);
    })

    .openapi(routes.sendSmsCode, async (c) => {
      const platform = smsPlatform();
      const sent = await loginWay(platform, 'sms', ctx).send(c.req.valid('json').phone);
      if (!sent.ok) throw platformFailure(platform, sent.error);
      return c.json({ success: true as const }, 200);
    })

    .openapi(routes.verifySmsCode, async (c) => {
      const { phone, code } = c.req.valid('json');
      const platform = smsPlatform();
      const sms = loginWay(platform, 'sms', ctx);
      const login = await sms.verify(phone, code);
      // A wrong code is the caller's mistake (400); the platform refusing SMS logins outright, or not
      // answering, is not (502).
      if (!login.ok && saysUnreachable(login.error)) throw platformFailure(platform, login.error);
      if (!login.ok)
        throw new ApiError(login.error === sms.refusedOutright ? 502 : 400, `${platform}: ${login.error}`);
      await storeSharedLogin(db, platform, login.value.credential, login.value.profile);
      return c.json({ success: true as const }, 200);
    })

    .openapi(routes.setCookieLogin, async (c) => {
      const { platform, cookie } = c.req.valid('json');
      if (!logsInBy(platform, 'cookie')) throw new ApiError(400, `${platform} does not log in with a cookie`);
      const login = await loginWay(platform, 'cookie', ctx).check(cookie);
      if (!login.ok) {
        // A platform that never answered judged nothing: not the caller's mistake, but a 502 naming it.
        if (saysUnreachable(login.error)) throw platformFailure(platform, login.error);
        throw new ApiError(400, say.cookieRefused(platform, login.error));
      }
      await storeSharedLogin(db, platform, login.value.credential, login.value.profile);
      return c.json({ success: true as const }, 200);
    })

    .openapi(routes.testJellyfin, async (c) =>
      c.json(await testJellyfinConnection(c.req.valid('json'), (await readSettings(db)).jellyfin), 200),
    );
}

/** The SMS platform, or the 501 of a build without one. */
function smsPlatform() {
  if (!SMS_PLATFORM) throw new ApiError(501, 'SMS login is not available in this build');
  return SMS_PLATFORM;
}
