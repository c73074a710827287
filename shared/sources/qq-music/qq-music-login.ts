/**
 * The shared QQ Music login: the cookie stored in `platform_accounts` (platform `music_b`). Its `uin`
 * and `qqmusic_key` go into every request's `comm`; without a row the adapter works anonymously.
 * The cookie is a secret: it is sent to QQ Music only and never logged.
 *
 * Cookie names from public clients: jsososo/QQMusicApi (routes/song.js: `uin`, `qqmusic_key` as
 * `comm.authst`) and L-1124/QQMusicApi (qqmusic_api/models/request.py: `qm_keyst` as the same key).
 */
import type { Db } from '../../db/client';
import { cookieValues } from '../http/cookies';
import { type LoginLookup as StoredLoginLookup, storedLogin } from '../login/stored-login';

export interface QqLogin {
  /** The account number, digits only. */
  uin: string;
  /** The music key (`qqmusic_key`, or `qm_keyst` from newer logins). */
  musicKey: string;
  /** The whole cookie, sent as-is to QQ Music hosts. */
  cookie: string;
}

export type LoginLookup = StoredLoginLookup<QqLogin>;

/** Reads the login from a cookie string; undefined when it lacks the account number or key. */
export function parseQqCookie(cookie: string): QqLogin | undefined {
  const values = cookieValues(cookie);
  // Web logins store the account as `o0123…`; the API wants the plain number.
  const uin = (values.get('uin') ?? values.get('wxuin') ?? '').replace(/^o0*/, '');
  const musicKey = values.get('qqmusic_key') ?? values.get('qm_keyst') ?? '';
  return /^\d+$/.test(uin) && musicKey ? { uin, musicKey, cookie: cookie.trim() } : undefined;
}

export function storedQqLogin(db: Db): LoginLookup {
  return storedLogin(db, 'music_b', parseQqCookie);
}
