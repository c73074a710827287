/**
 * How one NetEase Cloud Music call travels, by the first segment of its path: `/weapi/…` as the web
 * player sends it (music.163.com, weapi.ts), `/eapi/…` as the desktop client sends it
 * (interfacepc.music.163.com, eapi.ts) and `/xeapi/…` as the Android app sends its guarded calls
 * (interface3.music.163.com, xeapi.ts). Every call carries the device's cookies (netease-device.ts):
 * the web form the whole cookie, the desktop form its own header cookie, the app form both plus its
 * `x-*` headers. The answer comes back as JSON with the cookies it set (a login arrives that way).
 *
 * Hosts, headers, User-Agents, cookie forms and the per-form payload additions (`e_r`, `csrf_token`,
 * `header`) from NeteaseCloudMusicApiEnhanced/api-enhanced (util/request.js `createRequest`,
 * `processCookieObject`, `createHeaderCookie`, `chooseUserAgent`, `osMap`; util/config.json `APP_CONF`;
 * module/register_xeapikey.js, util/xeapiKey.js).
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { setCookies } from '../http/cookies';
import { fetchResponse, readBytes, readJson } from '../http/fetch-json';
import { eapi } from './eapi';
import { type AnonymousDevice, appHeaders, desktopHeader, headerCookie, webCookie } from './netease-cookies';
import type { NeteaseLogin } from './netease-login-shape';
import { weapi } from './weapi';
import {
  type KeyState,
  keyNonce,
  openedSession,
  openKeyState,
  openXeapiAnswer,
  type XeapiSession,
  xeapi,
  xeapiSign,
} from './xeapi';

export const SERVICE = 'NetEase Cloud Music';
export const WEB_ORIGIN = 'https://music.163.com';
export const DESKTOP_ORIGIN = 'https://interfacepc.music.163.com';
export const APP_ORIGIN = 'https://interface3.music.163.com';
export const KEY_URL = 'https://interface.music.163.com/api/gorilla/anti/crawler/security/key/get';
/** NetEase refuses web API and audio requests that do not come from its site. */
export const NETEASE_REFERER = 'https://music.163.com/';
const WEB_USER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0';
const DESKTOP_USER_AGENT = 'NeteaseMusic 9.0.90/5038 (iPhone; iOS 16.2; zh_CN)';
export const APP_USER_AGENT =
  'NeteaseMusic/9.5.61.260802021928(9005061);Dalvik/2.1.0 (Linux; U; Android 12; HBN-AL00 Build/cd737a2.0)';
const KEY_APP_VERSION = '9.5.61';
const FORM = 'application/x-www-form-urlencoded';

export interface Answer {
  json: unknown;
  /** The cookies the answer set, `name=value; …` (a secret once it holds a login). */
  cookie: string;
}

/** The API's own name of a call (`/api/…`) for a path of any form. */
export const apiPath = (path: string): string => path.replace(/^\/(?:weapi|eapi|xeapi)\//, '/api/');

/** Sends a call by its path's form, as `login` when given, from `device`. */
export function send(
  path: string,
  data: Record<string, unknown>,
  login: NeteaseLogin | undefined,
  device: AnonymousDevice,
): Promise<Result<Answer>> {
  if (path.startsWith('/eapi/')) return sendDesktop(path, data, login, device);
  if (path.startsWith('/xeapi/')) return sendApp(path, data, login, device);
  return sendWeb(path, data, login, device);
}

async function answered(
  url: string,
  init: RequestInit,
  read: (response: Response) => Promise<Result<unknown>>,
): Promise<Result<Answer>> {
  const response = await fetchResponse(SERVICE, url, init);
  if (!response.ok) return response;
  const json = await read(response.value);
  return json.ok ? ok({ json: json.value, cookie: setCookies(response.value) }) : json;
}

function sendWeb(
  path: string,
  data: Record<string, unknown>,
  login: NeteaseLogin | undefined,
  device: AnonymousDevice,
): Promise<Result<Answer>> {
  const form = weapi({ ...data, e_r: false, csrf_token: login?.csrf ?? '' });
  return answered(
    `${WEB_ORIGIN}${path}`,
    {
      method: 'POST',
      headers: {
        'content-type': FORM,
        referer: WEB_ORIGIN,
        'user-agent': WEB_USER_AGENT,
        cookie: webCookie(login, device, path),
      },
      body: new URLSearchParams({ ...form }).toString(),
    },
    (response) => readJson(SERVICE, response),
  );
}

function sendDesktop(
  path: string,
  data: Record<string, unknown>,
  login: NeteaseLogin | undefined,
  device: AnonymousDevice,
): Promise<Result<Answer>> {
  const header = desktopHeader(login, device);
  const params = eapi(apiPath(path), { ...data, e_r: false, header });
  return answered(
    `${DESKTOP_ORIGIN}${path}`,
    {
      method: 'POST',
      headers: { 'content-type': FORM, 'user-agent': DESKTOP_USER_AGENT, cookie: headerCookie(header) },
      body: new URLSearchParams({ params }).toString(),
    },
    (response) => readJson(SERVICE, response),
  );
}

/** The server's key state and the session it opened, kept for the process (as the reference keeps them). */
let keyState: Promise<Result<KeyState>> | undefined;
let session: XeapiSession | undefined;

const KeyAnswerSchema = z.object({
  code: z.literal(200),
  data: z.object({
    encryptedData: z.string(),
    signature: z.string(),
    timestamp: z.union([z.string(), z.number()]),
  }),
});

async function askKeyState(deviceId: string): Promise<Result<KeyState>> {
  const nonce = keyNonce();
  const timestamp = String(Date.now());
  const response = await fetchResponse(SERVICE, KEY_URL, {
    method: 'POST',
    headers: {
      'content-type': FORM,
      'user-agent': APP_USER_AGENT,
      cookie: `deviceId=${encodeURIComponent(deviceId)}`,
    },
    body: new URLSearchParams({
      appVersion: KEY_APP_VERSION,
      currentKeyVersion: '',
      deviceId,
      nonce,
      os: 'android',
      requestType: 'active',
      signature: xeapiSign(timestamp, nonce),
      t1: '',
      t2: '',
      timestamp,
      uid: '',
    }).toString(),
  });
  if (!response.ok) return response;
  const json = await readJson(SERVICE, response.value);
  if (!json.ok) return json;
  const answer = KeyAnswerSchema.safeParse(json.value);
  // The server signs its answer over its time and our nonce: anything else is not NetEase's key.
  const signed =
    answer.success && xeapiSign(String(answer.data.data.timestamp), nonce) === answer.data.data.signature;
  const state = signed ? openKeyState(answer.data.data.encryptedData) : undefined;
  return state ? ok(state) : err(`${SERVICE} did not hand out its request key`);
}

/** The key state, asked for once; a failed answer is asked again next time. */
async function currentKeyState(deviceId: string): Promise<Result<KeyState>> {
  const pending = keyState;
  const held = pending && (await pending);
  if (held?.ok) return held;
  if (keyState === pending) keyState = askKeyState(deviceId);
  return keyState ?? askKeyState(deviceId);
}

async function sendApp(
  path: string,
  data: Record<string, unknown>,
  login: NeteaseLogin | undefined,
  device: AnonymousDevice,
): Promise<Result<Answer>> {
  const state = await currentKeyState(device.deviceId);
  if (!state.ok) return state;
  const form = Object.fromEntries(Object.entries(data).map(([name, value]) => [name, String(value)]));
  const sealed = xeapi(form, state.value, session);
  if (!sealed.ok) return err(`${SERVICE} could not be asked ${path}: ${sealed.error}`);
  const { headers, cookie } = appHeaders(login, device);
  const response = await fetchResponse(SERVICE, `${APP_ORIGIN}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': `${FORM};charset=utf-8`, 'user-agent': APP_USER_AGENT, cookie },
    body: new URLSearchParams(sealed.value).toString(),
  });
  if (!response.ok) return response;
  const { headers: answerHeaders } = response.value;
  session = openedSession(answerHeaders.get('x-encr-ssid'), answerHeaders.get('x-encr-sskey')) ?? session;
  const body = await readBytes(SERVICE, response.value);
  if (!body.ok) return body;
  const json = openXeapiAnswer(body.value);
  if (!json.ok) return err(`${SERVICE} answered ${path}, but ${json.error}`);
  return ok({ json: json.value, cookie: setCookies(response.value) });
}
