/**
 * Renewing a stored Bilibili login the way its web pages do. `cookie/info` says whether Bilibili wants
 * the cookie renewed (code -101: the login is gone). If so, the page `correspond/1/<path>` — the path
 * being `refresh_<timestamp>` RSA-OAEP-encrypted for Bilibili, as hex — shows a one-time
 * `refresh_csrf`; `cookie/refresh`, sent with it, the `bili_jct` CSRF token and the login's refresh
 * token, sets the new login cookies and answers the next refresh token; `confirm/refresh`, sent with
 * the new cookie and the old refresh token, retires the old cookie.
 *
 * The refresh token comes with a QR login (bilibili-qr-login.ts) and is kept in the stored credential
 * as `ac_time_value`, the name the web pages keep it under; a pasted cookie without it can be checked
 * but not renewed. The cookie and both tokens are secrets: sent to Bilibili only, never logged.
 *
 * Requests, public key and codes from SocialSisterYi/bilibili-API-collect (docs/login/cookie_refresh.md).
 */
import { constants, publicEncrypt } from 'node:crypto';
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { cookieValues, mergeCookies, setCookies } from '../http/cookies';
import { fetchResponse, readJson, readText } from '../http/fetch-json';
import type { RefreshOutcome } from '../platform-login';
import { BILIBILI_REFERER } from './bilibili-client';
import { SERVICE } from './bilibili-errors';

const PASSPORT = 'https://passport.bilibili.com/x/passport-login/web';
const CORRESPOND = 'https://www.bilibili.com/correspond/1';
/** Where the stored credential keeps the refresh token (the web pages' localStorage name for it). */
export const REFRESH_TOKEN_COOKIE = 'ac_time_value';
const CORRESPOND_KEY = `-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDLgd2OAkcGVtoE3ThUREbio0Eg
Uc/prcajMKXvkCKFCWhJYJcLkcM2DKKcSeFpD/j6Boy538YXnR6VhcuUJOhH2x71
nzPjfdTcqMz7djHum0qSZA0AyCBDABUqCrfNgCiJ00Ra7GmRj+YCK1NJEuewlb40
JNrRuoEUXpabUzGB8QIDAQAB
-----END PUBLIC KEY-----`;
const NOT_LOGGED_IN = -101;

const InfoSchema = z.object({
  code: z.number(),
  data: z.object({ refresh: z.boolean(), timestamp: z.number() }).nullish(),
});
const RefreshedSchema = z.object({
  code: z.number(),
  message: z.string().optional(),
  data: z.object({ refresh_token: z.string().min(1) }).nullish(),
});

/** The credential to store for a login cookie and its refresh token. */
export const withRefreshToken = (cookie: string, refreshToken: string): string =>
  mergeCookies(cookie, `${REFRESH_TOKEN_COOKIE}=${refreshToken}`);

/** The page path for a refresh at `timestamp` (ms): `refresh_<timestamp>`, RSA-OAEP (SHA-256), hex. */
export const correspondPath = (timestamp: number): string =>
  publicEncrypt(
    { key: CORRESPOND_KEY, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(`refresh_${timestamp}`),
  ).toString('hex');

const headers = (cookie: string, form = false) => ({
  referer: BILIBILI_REFERER,
  'user-agent': BROWSER_USER_AGENT,
  cookie,
  ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
});

/** A passport answer parsed with `schema`, and the cookies it set. */
async function passport<T extends z.ZodType>(
  what: string,
  url: string,
  init: RequestInit,
  schema: T,
): Promise<Result<{ answer: z.output<T>; cookies: string }>> {
  const response = await fetchResponse(SERVICE, url, init);
  if (!response.ok) return response;
  const json = await readJson(SERVICE, response.value);
  if (!json.ok) return json;
  const answer = schema.safeParse(json.value);
  if (!answer.success) return err(`${SERVICE} answered ${what} in an unexpected shape`);
  return ok({ answer: answer.data, cookies: setCookies(response.value) });
}

/** The `refresh_csrf` the correspond page shows for this refresh (in `<div id="1-name">`). */
async function refreshCsrf(cookie: string, timestamp: number): Promise<Result<string>> {
  const page = await fetchResponse(SERVICE, `${CORRESPOND}/${correspondPath(timestamp)}`, {
    headers: headers(cookie),
  });
  if (!page.ok) return page;
  const text = await readText(SERVICE, page.value);
  if (!text.ok) return text;
  const csrf = /<div id="1-name">\s*([0-9a-zA-Z]+)\s*<\/div>/.exec(text.value)?.[1];
  return csrf ? ok(csrf) : err(`${SERVICE} did not hand out the one-time token to renew the login`);
}

export async function refreshBilibiliLogin(credential: string): Promise<Result<RefreshOutcome>> {
  const values = cookieValues(credential);
  if (!values.get('SESSDATA')) return ok('expired');
  const csrf = values.get('bili_jct') ?? '';
  const info = await passport(
    'the login check',
    `${PASSPORT}/cookie/info?${new URLSearchParams({ csrf })}`,
    { headers: headers(credential) },
    InfoSchema,
  );
  if (!info.ok) return info;
  const { code, data } = info.value.answer;
  if (code === NOT_LOGGED_IN) return ok('expired');
  if (code !== 0 || !data) return err(`${SERVICE} refused the login check (code ${code})`);
  if (!data.refresh) return ok({ credential });
  const refreshToken = values.get(REFRESH_TOKEN_COOKIE);
  if (!refreshToken)
    return err(`${SERVICE} wants the login renewed, but it was stored without its refresh token`);

  const oneTime = await refreshCsrf(credential, data.timestamp);
  if (!oneTime.ok) return oneTime;
  const form = { csrf, refresh_csrf: oneTime.value, source: 'main_web', refresh_token: refreshToken };
  const refreshed = await passport(
    'the login renewal',
    `${PASSPORT}/cookie/refresh`,
    { method: 'POST', headers: headers(credential, true), body: new URLSearchParams(form).toString() },
    RefreshedSchema,
  );
  if (!refreshed.ok) return refreshed;
  const { answer, cookies } = refreshed.value;
  if (answer.code === NOT_LOGGED_IN) return ok('expired');
  if (answer.code !== 0 || !answer.data)
    return err(`${SERVICE} refused to renew the login (code ${answer.code})`);
  const renewed = withRefreshToken(mergeCookies(credential, cookies), answer.data.refresh_token);

  // Confirming only retires the old cookie; the new one works either way, and the old refresh token is
  // spent, so the new credential is kept even when the confirmation fails.
  await fetchResponse(SERVICE, `${PASSPORT}/confirm/refresh`, {
    method: 'POST',
    headers: headers(renewed, true),
    body: new URLSearchParams({
      csrf: cookieValues(renewed).get('bili_jct') ?? '',
      refresh_token: refreshToken,
    }).toString(),
  });
  return ok({ credential: renewed });
}
