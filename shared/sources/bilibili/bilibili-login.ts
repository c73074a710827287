/**
 * The shared Bilibili login: the cookie stored in `platform_accounts` (platform `video_a`), sent as-is
 * to Bilibili's API. Without a row (or without `SESSDATA` in it) the adapter works as a guest. The
 * cookie is a secret: it is sent to Bilibili only and never logged.
 *
 * Cookie names from SocialSisterYi/bilibili-API-collect (docs/login/login_info.md: `SESSDATA` is the
 * login; docs/misc/buvid3_4.md: `buvid3` names the browser, which guests get from `finger/spi`).
 */
import type { Db } from '../../db/client';
import { cookieValues } from '../http/cookies';
import { type LoginLookup as StoredLoginLookup, storedLogin } from '../login/stored-login';

export interface BilibiliLogin {
  /** The whole cookie, sent as-is to Bilibili hosts. */
  cookie: string;
  /** Whether the cookie already names a browser (`buvid3`), so no guest one is added. */
  hasBuvid: boolean;
}

export type LoginLookup = StoredLoginLookup<BilibiliLogin>;

/** Reads a login from a cookie string; undefined when it has no `SESSDATA` (not logged in). */
export function parseBilibiliCookie(cookie: string): BilibiliLogin | undefined {
  const values = cookieValues(cookie);
  if (!values.get('SESSDATA')) return undefined;
  return { cookie: cookie.trim(), hasBuvid: Boolean(values.get('buvid3')) };
}

export function storedBilibiliLogin(db: Db): LoginLookup {
  return storedLogin(db, 'video_a', parseBilibiliCookie);
}
