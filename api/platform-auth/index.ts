/**
 * /api/auth: the platform logins every bot shares. Status comes from each platform's catalog; logins
 * are made through the platform table's login ways (QR, cookie, SMS) and stored in `platform_accounts`.
 * The credential never appears in an answer or a log line.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import * as routes from '../../openapi/routes/platform-auth';
import type { Platform } from '../../shared/domain/constants';
import { logsInBy } from '../../shared/domain/platforms';
import { renderPhrase } from '../../shared/i18n/phrases';
import { readSettings } from '../../shared/settings/settings';
import { testJellyfinConnection } from '../../shared/sources/jellyfin/jellyfin-connection-test';
import { SMS_REFUSED } from '../../shared/sources/netease/netease-sms-login';
import type { Catalogs, SourceContext } from '../../shared/sources/platform-table';
import type { AccountStatus } from '../../shared/sources/song-catalog';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { requestLocale } from '../locale';
import { platformFailure } from '../music/platform-failure';
import { loginWay, storeSharedLogin } from './platform-logins';
import { QrAttempts } from './qr-attempts';

export function platformAuthRoutes({ db, config }: AppDeps, catalogs: Catalogs) {
  const ctx: SourceContext = { db, dataDir: config.dataDir, ytDlpPath: config.ytDlpPath };
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
      const sent = await loginWay('music_a', 'sms', ctx).send(c.req.valid('json').phone);
      if (!sent.ok) throw platformFailure('music_a', sent.error);
      return c.json({ success: true as const }, 200);
    })

    .openapi(routes.verifySmsCode, async (c) => {
      const { phone, code } = c.req.valid('json');
      const login = await loginWay('music_a', 'sms', ctx).verify(phone, code);
      // A wrong code is the caller's mistake (400); NetEase refusing SMS logins outright is its own (502).
      if (!login.ok) throw new ApiError(login.error === SMS_REFUSED ? 502 : 400, `music_a: ${login.error}`);
      await storeSharedLogin(db, 'music_a', login.value.credential, login.value.profile);
      return c.json({ success: true as const }, 200);
    })

    .openapi(routes.setCookieLogin, async (c) => {
      const { platform, cookie } = c.req.valid('json');
      if (!logsInBy(platform, 'cookie')) throw new ApiError(400, `${platform} does not log in with a cookie`);
      const login = await loginWay(platform, 'cookie', ctx).check(cookie);
      if (!login.ok) throw new ApiError(400, `${platform}: ${login.error}`);
      await storeSharedLogin(db, platform, login.value.credential, login.value.profile);
      return c.json({ success: true as const }, 200);
    })

    .openapi(routes.testJellyfin, async (c) =>
      c.json(await testJellyfinConnection(c.req.valid('json'), (await readSettings(db)).jellyfin), 200),
    );
}
