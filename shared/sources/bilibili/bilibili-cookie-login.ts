/**
 * Checking a Bilibili login cookie: it must carry `SESSDATA`, and `nav` asked with it must say the
 * account is logged in. A pasted cookie and the one a confirmed QR code sets are both checked this way
 * before they are stored. The cookie is a secret: sent to Bilibili only, never logged.
 */
import { err, ok } from '../../result';
import type { CookieLogin } from '../platform-login';
import { BilibiliClient } from './bilibili-client';
import { SERVICE } from './bilibili-errors';
import { parseBilibiliCookie } from './bilibili-login';
import { httpsUrl } from './bilibili-videos';

export const bilibiliCookieLogin: CookieLogin = {
  async check(cookie) {
    const login = parseBilibiliCookie(cookie);
    if (!login) return err(`${SERVICE} needs the SESSDATA cookie of a logged-in account`);
    const nav = await new BilibiliClient(async () => login).nav();
    if (!nav.ok) return nav;
    const { isLogin, uname, face } = nav.value;
    if (!isLogin)
      return err(`${SERVICE} does not accept this cookie: its login has expired or was logged out`);
    return ok({
      credential: login.cookie,
      profile: { ...(uname && { nickname: uname }), ...(face && { avatarUrl: httpsUrl(face) }) },
    });
  },
};
