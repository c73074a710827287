/**
 * Checking a NetEase Cloud Music login cookie: it must carry `MUSIC_U`, and NetEase must still know the
 * account behind it (`readAccount`). A pasted cookie, the cookie of a confirmed QR code and that of an
 * SMS login are all checked this way before they are stored. The cookie is a secret: sent to NetEase
 * only, never logged, never part of a sentence.
 */
import { err, ok, type Result } from '../../result';
import { accountStatusOf } from '../account-status';
import type { CookieLogin, LoginProfile } from '../platform-login';
import type { AccountStatus } from '../song-catalog';
import { readAccount } from './netease-account';
import { NeteaseClient } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import { SERVICE } from './netease-transport';

/** Every call here names its login explicitly, so the client needs no stored one. */
const client = new NeteaseClient(async () => undefined);

/** Who `cookie` logs in as; `loggedIn: false` when it has no `MUSIC_U` or NetEase no longer accepts it. */
export function neteaseCookieStatus(cookie: string): Promise<Result<AccountStatus>> {
  return accountStatusOf(parseNeteaseCookie(cookie), (login) => readAccount(client, login));
}

export const neteaseCookieLogin: CookieLogin = {
  async check(cookie) {
    if (!parseNeteaseCookie(cookie)) return err(`${SERVICE} needs the MUSIC_U cookie of a logged-in account`);
    const status = await neteaseCookieStatus(cookie);
    if (!status.ok) return status;
    const { loggedIn, ...profile } = status.value;
    if (!loggedIn)
      return err(`${SERVICE} does not accept this cookie: its login has expired or was logged out`);
    return ok({ credential: cookie.trim(), profile: profile satisfies LoginProfile });
  },
};
