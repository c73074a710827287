/**
 * Checking a QQ Music login cookie: it must name the account (`uin`) and its music key (`qqmusic_key`
 * or `qm_keyst`), and QQ Music must still accept them (`readAccount`). A pasted cookie and the one a
 * confirmed QR code makes are both checked this way before they are stored. The cookie is a secret:
 * sent to QQ Music only, never logged, never part of a sentence.
 */
import { err, ok } from '../../result';
import type { CookieLogin } from '../platform-login';
import { MusicuClient } from './musicu-client';
import { readAccount } from './qq-music-account';
import { parseQqCookie } from './qq-music-login';

/** Every call here names its login explicitly, so the client needs no stored one. */
export const loginlessMusicu = new MusicuClient(async () => undefined);

export const qqCookieLogin: CookieLogin = {
  async check(cookie) {
    const login = parseQqCookie(cookie);
    if (!login)
      return err('QQ Music needs the uin and qqmusic_key (or qm_keyst) cookies of a logged-in account');
    const account = await readAccount(loginlessMusicu, login);
    if (!account.ok) return account;
    if (!account.value)
      return err('QQ Music does not accept this cookie: its login has expired or was logged out');
    const { nickname, avatarUrl } = account.value;
    return ok({
      credential: login.cookie,
      profile: { ...(nickname && { nickname }), ...(avatarUrl && { avatarUrl }) },
    });
  },
};
