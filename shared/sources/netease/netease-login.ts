/**
 * NetEase Cloud Music logins: the shared bot login is the cookie stored in `platform_accounts`
 * (platform `music_a`); a user's own account is the cookie of their `personal_links` row. Without a
 * login the adapter works anonymously. A cookie is a secret: it is sent to NetEase only, never logged.
 *
 * Cookie names from NeteaseCloudMusicApiEnhanced/api-enhanced (util/request.js: `MUSIC_U` is the login,
 * `__csrf` becomes the weapi payload's `csrf_token` and the eapi header's `__csrf`).
 */
import type { Db } from '../../db/client';
import { cookieValues } from '../http/cookies';
import { storedLogin } from '../login/stored-login';
import { keepDeviceIn } from './netease-device';
import type { LoginLookup, NeteaseLogin } from './netease-login-shape';

/** Reads a login from a cookie string; undefined when it has no `MUSIC_U` (not logged in). */
export function parseNeteaseCookie(cookie: string): NeteaseLogin | undefined {
  const values = cookieValues(cookie);
  if (!values.get('MUSIC_U')) return undefined;
  return { cookie: cookie.trim(), csrf: values.get('__csrf') ?? '' };
}

/**
 * The shared login stored in `db`. The anonymous device is kept in the same database
 * (netease-device.ts), so naming the database here is where a process first learns it.
 */
export function storedNeteaseLogin(db: Db): LoginLookup {
  keepDeviceIn(db);
  return storedLogin(db, 'music_a', parseNeteaseCookie);
}
