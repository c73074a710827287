/**
 * How a platform's shared login is made (SPEC "Platform accounts"): a QR code scanned in the platform's
 * app, a pasted cookie, or an SMS code. Each platform that supports a way implements it in its own
 * folder and names it in its platform module (`login`); the /api/auth and /api/me/music routes drive
 * them without knowing the platform. The credential (a cookie or token) is a secret: it is stored
 * server-side only (`platform_accounts`, or `personal_links` for a user's own account), never returned
 * and never logged.
 */
import type { Result } from '../result';
import type { AccountStatus } from './song-catalog';

export type QrStatus = 'waiting' | 'scanned' | 'confirmed' | 'expired';

export interface QrStart {
  /** What the QR code encodes (the platform's login page URL or token). */
  qrUrl: string;
  /** The platform's own state of this attempt (its QR key, a session cookie), kept in `qr_logins.state`. */
  state: Record<string, string>;
  /**
   * The platform's own picture of the code (a PNG data URL), for a platform that hands out the picture
   * rather than what it encodes (QQ's `ptqrshow`); `qrUrl` is then that picture too. Without it the api
   * draws the code from `qrUrl`.
   */
  qrImg?: string;
}

/** Who logged in, as shown to people. */
export interface LoginProfile {
  nickname?: string;
  avatarUrl?: string;
}

export type QrPoll =
  | { status: 'waiting' | 'scanned' | 'expired' }
  /** `credential` is what to store (e.g. the whole cookie); confirmed attempts are persisted by the caller. */
  | { status: 'confirmed'; credential: string; profile: LoginProfile };

export interface QrLogin {
  start(): Promise<Result<QrStart>>;
  /** The platform's own states mapped to the four of SPEC; `state` is what `start` returned. */
  poll(state: Record<string, string>): Promise<Result<QrPoll>>;
}

export interface CookieLogin {
  /**
   * Checks a pasted cookie with the platform: the credential to store (normalized) and who it is, or an
   * error sentence when the platform does not accept it.
   */
  check(cookie: string): Promise<Result<{ credential: string; profile: LoginProfile }>>;
}

export interface SmsLogin {
  /**
   * The sentence `send` and `verify` fail with when the platform refuses SMS logins outright (its own
   * failure, unlike a wrong code).
   */
  readonly refusedOutright: string;
  send(phone: string): Promise<Result<void>>;
  verify(phone: string, code: string): Promise<Result<{ credential: string; profile: LoginProfile }>>;
}

/**
 * What refreshing a stored login ends in: the credential to store in place of the old one (the same
 * one when the platform saw no need to renew it), or 'expired' when the platform no longer accepts the
 * old one, so it shows as logged out until someone logs in again.
 */
export type RefreshOutcome = { credential: string } | 'expired';

export interface PlatformLogin {
  qr?: QrLogin;
  cookie?: CookieLogin;
  sms?: SmsLogin;
  /**
   * Renews a stored credential where the platform allows it (the daemon does so at start and twice a
   * day): a new credential to store, 'expired', or an error sentence when the platform could not be
   * reached or refused in some other way; then nothing changes and the old credential stays.
   */
  refresh?(credential: string): Promise<Result<RefreshOutcome>>;
  /**
   * Who a stored credential logs in as, asked of the platform (a user's own linked account): `loggedIn:
   * false` when the platform no longer accepts it, an error sentence when it cannot be asked.
   */
  status?(credential: string): Promise<Result<AccountStatus>>;
}
