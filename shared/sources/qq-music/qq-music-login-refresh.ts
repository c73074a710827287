/**
 * Renewing a stored QQ Music login: musicu's `music.login.LoginServer`/`Login`, asked as the login
 * (`comm.tmeLoginType` its kind) with the renewal fields a QR login stored (qq-music-login-cookie.ts),
 * answers a new music key and renewal fields. The new key replaces the old one under whichever names
 * the cookie keeps it (`qqmusic_key`, `qm_keyst`); the renewal fields replace theirs; the rest stays.
 * The codes meaning a dead login (musicu-client.ts) mean it has expired. A cookie without renewal
 * fields (a pasted one) cannot be renewed: an error sentence, and it stays as it is. Only QQ-account
 * logins are renewed (a WeChat one names other fields, and no login here makes one); others stay as they are.
 * The cookie is a secret: sent to QQ Music only, never logged, never part of a sentence.
 *
 * Request from L-1124/QQMusicApi (qqmusic_api/modules/login.py `refresh_credential`: the module and
 * method, `comm.tmeLoginType`, and for login type 2 the params `openid`, `access_token`,
 * `refresh_token`, `expired_in`, `musicid`, `musickey`, `refresh_key`, `loginMode` 2; the answer a
 * `Credential`; codes 1000/104400/104401 an expired login).
 */
import { err, ok, type Result } from '../../result';
import { cookieValues, mergeCookies } from '../http/cookies';
import type { RefreshOutcome } from '../platform-login';
import { LOGIN_EXPIRED } from './musicu-client';
import { loginlessMusicu } from './qq-music-cookie-login';
import { parseQqCookie } from './qq-music-login';
import { MusicLoginSchema, QQ_ACCOUNT_LOGIN_TYPE, readRenewal, renewalCookie } from './qq-music-login-cookie';

/** The renewal's `loginMode`: renewing an existing login. */
const RENEW_LOGIN_MODE = 2;
const MUSIC_KEY_NAMES = ['qqmusic_key', 'qm_keyst'];

export async function refreshQqMusicLogin(credential: string): Promise<Result<RefreshOutcome>> {
  const login = parseQqCookie(credential);
  if (!login) return ok('expired');
  const renewal = readRenewal(login.cookie);
  // Only a QR login keeps what renewing needs: any other login is left as it is, until it expires.
  if (renewal?.loginType !== QQ_ACCOUNT_LOGIN_TYPE) return ok({ credential });
  const answer = await loginlessMusicu.call(
    {
      module: 'music.login.LoginServer',
      method: 'Login',
      param: {
        openid: renewal.openid,
        access_token: renewal.accessToken,
        refresh_token: renewal.refreshToken,
        expired_in: renewal.expiredAt,
        musicid: Number(login.uin),
        musickey: login.musicKey,
        refresh_key: renewal.refreshKey,
        loginMode: RENEW_LOGIN_MODE,
      },
    },
    MusicLoginSchema,
    login,
    { tmeLoginType: renewal.loginType },
  );
  if (!answer.ok) return answer.error === LOGIN_EXPIRED ? ok('expired') : answer;
  const renewed = answer.value;
  if (String(renewed.musicid) !== login.uin) return err('QQ Music renewed the login for another account');
  const stored = cookieValues(login.cookie);
  const keys = MUSIC_KEY_NAMES.filter((name) => stored.has(name)).map(
    (name) => `${name}=${renewed.musickey}`,
  );
  const update = [...keys, renewalCookie(renewed, renewal.loginType)].join('; ');
  return ok({ credential: mergeCookies(login.cookie, update) });
}
