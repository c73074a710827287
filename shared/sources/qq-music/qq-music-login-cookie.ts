/**
 * What QQ Music's music login answers (the QR login's `QQConnectLogin.LoginServer`/`QQLogin`, and the
 * renewal `music.login.LoginServer`/`Login`), and how its renewal fields live in the stored cookie. Next
 * to `uin` and the music key (`qqmusic_key`, `qm_keyst`, see qq-music-login.ts) the cookie keeps, under
 * names of our own that follow the answer's fields:
 *
 * - `refresh_key`, `refresh_token`: what renews an expiring music key;
 * - `openid`, `access_token`, `expired_at`: the QQ Connect login the renewal names again;
 * - `tmeLoginType`: the kind of login (2 for a QQ account), which the renewal's `comm` repeats;
 * - `euin`: the encrypted account number.
 *
 * A pasted browser cookie has none of them, so only a QR login can be renewed. These are secrets like
 * the key: sent to QQ Music only, never logged.
 *
 * Answer fields from L-1124/QQMusicApi (qqmusic_api/models/request.py `Credential`: `musicid`,
 * `musickey`, `refresh_key`, `refresh_token`, `openid`, `access_token`, `expired_at`, `encryptUin`,
 * `loginType`).
 */
import { z } from 'zod';
import { cookieValues } from '../http/cookies';

/** `tmeLoginType` of a login with a QQ account (QQ Connect); WeChat logins are 1. */
export const QQ_ACCOUNT_LOGIN_TYPE = 2;

export const MusicLoginSchema = z.object({
  musicid: z.number().int().positive(),
  musickey: z.string().min(1),
  encryptUin: z.string().optional(),
  openid: z.string().optional(),
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
  refresh_key: z.string().optional(),
  expired_at: z.number().int().optional(),
});
export type MusicLogin = z.output<typeof MusicLoginSchema>;

/** What renewing a stored login sends back to QQ Music. */
export interface Renewal {
  loginType: number;
  refreshKey: string;
  refreshToken: string;
  openid: string;
  accessToken: string;
  expiredAt: number;
}

/**
 * The cookie pairs (`name=value; …`) of an answer's renewal fields and account, for a login of
 * `loginType`; fields the answer leaves out or empty are left out, so merging keeps their old values.
 */
export function renewalCookie(login: MusicLogin, loginType: number): string {
  const pairs: [string, string | number | undefined][] = [
    ['euin', login.encryptUin],
    ['openid', login.openid],
    ['access_token', login.access_token],
    ['expired_at', login.expired_at],
    ['refresh_token', login.refresh_token],
    ['refresh_key', login.refresh_key],
    ['tmeLoginType', loginType],
  ];
  return pairs
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

/** The renewal fields a stored cookie keeps; undefined when it lacks the refresh key or token. */
export function readRenewal(cookie: string): Renewal | undefined {
  const values = cookieValues(cookie);
  const refreshKey = values.get('refresh_key');
  const refreshToken = values.get('refresh_token');
  const loginType = Number(values.get('tmeLoginType'));
  if (!refreshKey || !refreshToken || !Number.isInteger(loginType)) return undefined;
  return {
    loginType,
    refreshKey,
    refreshToken,
    openid: values.get('openid') ?? '',
    accessToken: values.get('access_token') ?? '',
    expiredAt: Number(values.get('expired_at') ?? 0) || 0,
  };
}
