/**
 * Renewing a stored NetEase Cloud Music login: `/eapi/login/token/refresh` (the desktop form), asked with the login
 * cookie, answers code 200 and sets the renewed login cookies (`MUSIC_U`, `__csrf`, …) in Set-Cookie;
 * they replace their old values in the stored cookie, whose other cookies stay. Code 301 means NetEase
 * no longer knows the login. Other codes (NetEase refuses to renew some logins, e.g. QR ones with 400)
 * leave the stored cookie as it is. The cookie is a secret: sent to NetEase only, never logged.
 *
 * Endpoint from NeteaseCloudMusicApiEnhanced/api-enhanced (module/login_refresh.js: the default eapi
 * form without data, the renewed cookie in Set-Cookie) and Binaryify/NeteaseCloudMusicApi issue #1421
 * (QR logins are answered 400).
 */
import { err, ok, type Result } from '../../result';
import { mergeCookies } from '../http/cookies';
import type { RefreshOutcome } from '../platform-login';
import { refusal } from './netease-client';
import { parseNeteaseCookie } from './netease-login';
import { LoginAnswerSchema, loginCall } from './netease-login-call';

const REFRESHED = 200;
const NOT_LOGGED_IN = 301;

export async function refreshNeteaseLogin(credential: string): Promise<Result<RefreshOutcome>> {
  const login = parseNeteaseCookie(credential);
  if (!login) return ok('expired');
  const call = await loginCall('/eapi/login/token/refresh', {}, LoginAnswerSchema, login);
  if (!call.ok) return call;
  const { answer, cookie } = call.value;
  if (answer.code === NOT_LOGGED_IN) return ok('expired');
  if (answer.code !== REFRESHED) return err(refusal('to renew the login', answer));
  return ok({ credential: mergeCookies(login.cookie, cookie) });
}
