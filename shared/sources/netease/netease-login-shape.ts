/**
 * What a NetEase login is, apart from where it is stored (netease-login.ts): the transport, the cookie
 * builders and the device store all speak of it, and netease-login.ts uses them, so the shape lives
 * here for all of them without an import cycle.
 */
import type { LoginLookup as StoredLoginLookup } from '../login/stored-login';

export interface NeteaseLogin {
  /** The whole cookie, sent as-is to NetEase hosts. */
  cookie: string;
  /** The `__csrf` value the web player also puts in every weapi payload; empty when absent. */
  csrf: string;
}

export type LoginLookup = StoredLoginLookup<NeteaseLogin>;
