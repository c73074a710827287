/**
 * Who the stored QQ Music login is. The login is checked first with `music.UserInfo.userInfoServer`/
 * `GetLoginUserInfo` (a dead cookie is refused with one of the login-expired codes, which this module
 * turns into "not logged in", an answer rather than a failure); then the account's homepage header
 * (`music.UnifiedHomepage.UnifiedHomepageSrv`/`GetHomepageHeader`, asked with the encrypted uin a QR
 * login stored, else the plain uin) names it and gives the encrypted uin that the collected-playlist
 * request wants.
 *
 * Requests from L-1124/QQMusicApi (qqmusic_api/modules/login.py `check_expired`;
 * modules/user.py `get_homepage`: `uin` = the `euin`, `IsQueryTabDetail`; its early data/api/user.json
 * says the homepage takes "musicid or euin", which a pasted cookie without `euin` relies on).
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { cookieValues } from '../http/cookies';
import { LOGIN_EXPIRED, type MusicuClient } from './musicu-client';
import type { QqLogin } from './qq-music-login';
import { HomepageDataSchema } from './qq-music-schemas';

export interface QqAccount {
  nickname: string;
  avatarUrl: string;
  /** The encrypted account number (`euin`) some account requests take instead of the uin. */
  encryptedUin: string;
}

/** The login's account, or undefined when the cookie no longer logs in. */
export async function readAccount(
  client: MusicuClient,
  login: QqLogin,
): Promise<Result<QqAccount | undefined>> {
  const check = await client.call(
    { module: 'music.UserInfo.userInfoServer', method: 'GetLoginUserInfo', param: {} },
    z.unknown(),
    login,
  );
  if (!check.ok) return check.error === LOGIN_EXPIRED ? ok(undefined) : check;
  const header = await client.call(
    {
      module: 'music.UnifiedHomepage.UnifiedHomepageSrv',
      method: 'GetHomepageHeader',
      param: { uin: cookieValues(login.cookie).get('euin') || login.uin, IsQueryTabDetail: 1 },
    },
    HomepageDataSchema,
    login,
  );
  if (!header.ok) return header.error === LOGIN_EXPIRED ? ok(undefined) : header;
  const { Name, Avatar, EncryptedUin } = header.value.Info.BaseInfo;
  return ok({ nickname: Name, avatarUrl: Avatar, encryptedUin: EncryptedUin });
}

/** The refusal for a personal page asked for without any stored login. */
export const needsLogin = (what: string) => `${what} needs a QQ Music login; log in first`;

/** The stored login and its account, or the sentence saying why a personal page cannot be read. */
export async function loggedInAccount(
  client: MusicuClient,
  what: string,
): Promise<Result<{ login: QqLogin; account: QqAccount }>> {
  const login = await client.currentLogin();
  if (!login) return err(needsLogin(what));
  const account = await readAccount(client, login);
  if (!account.ok) return account;
  return account.value ? ok({ login, account: account.value }) : err(LOGIN_EXPIRED);
}
