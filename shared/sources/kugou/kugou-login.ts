/**
 * Kugou Music logins: the shared bot login is the cookie stored in `platform_accounts` (platform
 * `music_c`), holding the account's `token` and `userid`; without a row the adapter works anonymously.
 * Kugou binds a token to the device that logged in, so the device id (`mid`, `dfid`) is kept with it:
 * the QR login stores the one it logged in with, and a pasted cookie may bring its own
 * (`KUGOU_API_MID`, `dfid`, as the public API server writes them); one without gets a device id derived
 * from its account, the same on every start. The token is a secret: sent to Kugou only, never logged.
 *
 * Cookie names from MakcRe/KuGouMusicApi (util/request.js: `token`, `userid`, `dfid`, `KUGOU_API_MID`;
 * module/login_qr_check.js: the `token` and `userid` a confirmed QR login sets); a new device's `dfid`
 * as its module/song_url.js makes one when the cookie has none (util/util.js `randomString(24)`: 24
 * characters of 0-9 and A-Z).
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { cookieValues } from '../http/cookies';
import { type LoginLookup as StoredLoginLookup, storedLogin } from '../login/stored-login';
import { deviceMid } from './kugou-signing';

/** The device a request says it comes from. A pasted cookie without a `dfid` sends "-" as its own. */
export interface KugouDevice {
  mid: string;
  dfid: string;
}

export interface KugouLogin extends KugouDevice {
  token: string;
  /** The account number, digits only. */
  userid: string;
}

export type LoginLookup = StoredLoginLookup<KugouLogin>;

export const UNREGISTERED_DFID = '-';
const DFID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DFID_LENGTH = 24;

/** A device fingerprint id as the app's requests carry one: 24 random digits and capitals. */
export const randomDfid = (): string =>
  Array.from({ length: DFID_LENGTH }, () => DFID_ALPHABET.charAt(randomInt(DFID_ALPHABET.length))).join('');

/** A new device for an anonymous client or a QR login attempt. */
export const newDevice = (): KugouDevice => ({ mid: deviceMid(randomUUID()), dfid: randomDfid() });

export const isLogin = (who: KugouDevice): who is KugouLogin => 'token' in who;

/** Reads a login from a cookie string; undefined when it lacks the token or the account number. */
export function parseKugouCookie(cookie: string): KugouLogin | undefined {
  const values = cookieValues(cookie);
  const token = values.get('token') ?? '';
  const userid = values.get('userid') ?? '';
  if (!token || !/^\d+$/.test(userid) || userid === '0') return undefined;
  const mid = values.get('KUGOU_API_MID') ?? values.get('mid') ?? '';
  return {
    token,
    userid,
    mid: /^\d+$/.test(mid) ? mid : deviceMid(`music_c:${userid}`),
    dfid: values.get('dfid') || UNREGISTERED_DFID,
  };
}

/** The cookie to store for a login: what `parseKugouCookie` reads back. */
export const kugouCookie = (login: KugouLogin): string =>
  `token=${login.token}; userid=${login.userid}; KUGOU_API_MID=${login.mid}; dfid=${login.dfid}`;

export function storedKugouLogin(db: Db): LoginLookup {
  return storedLogin(db, 'music_c', parseKugouCookie);
}
