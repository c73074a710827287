/**
 * One weapi call to NetEase Cloud Music: a form POST of `params` + `encSecKey` (see weapi.ts) to
 * `https://music.163.com/weapi/…`, with the site's Referer, a browser User-Agent and the login cookie.
 * Every answer carries a top-level `code` (200 = fine, 301 = a login is needed); every failure
 * (network, HTTP status, error code, unexpected shape) comes back as a Result with a readable sentence.
 *
 * Request shape from Binaryify/NeteaseCloudMusicApi (util/request.js: form content type, Referer,
 * `csrf_token` from the `__csrf` cookie; the `code` handling and 301 for "needs login").
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { fetchJson } from '../http/fetch-json';
import type { LoginLookup, NeteaseLogin } from './netease-login';
import { weapi } from './weapi';

export const NETEASE_ORIGIN = 'https://music.163.com';
/** NetEase refuses API and audio requests that do not come from its site. */
export const NETEASE_REFERER = 'https://music.163.com/';
export const SERVICE = 'NetEase Cloud Music';
const OK_CODE = 200;
const NEEDS_LOGIN_CODE = 301;
const NOT_FOUND_CODE = 404;

const NOT_FOUND: ReadonlySet<number> = new Set([NOT_FOUND_CODE]);
const NOT_FOUND_OR_LOGGED_OUT: ReadonlySet<number> = new Set([NOT_FOUND_CODE, NEEDS_LOGIN_CODE]);

/** What every caller says when the stored cookie no longer logs in. */
export const EXPIRED_LOGIN = `the ${SERVICE} login has expired; log in again`;

const EnvelopeSchema = z.object({
  code: z.number(),
  message: z.string().nullish(),
  msg: z.string().nullish(),
});

export class NeteaseClient {
  constructor(private readonly login: LoginLookup) {}

  /** The stored (shared) login, for callers that also need it outside the request (audio headers). */
  currentLogin(): Promise<NeteaseLogin | undefined> {
    return this.login();
  }

  /** Calls `path` (e.g. `/weapi/v3/song/detail`) as `login`, or as the stored login when none is given. */
  async call<T extends z.ZodType>(
    path: string,
    data: Record<string, unknown>,
    schema: T,
    login?: NeteaseLogin,
  ): Promise<Result<z.output<T>>> {
    const answer = await this.find(path, data, schema, login);
    if (!answer.ok) return answer;
    return answer.value === undefined
      ? err(`${SERVICE} refused ${path} (code ${NOT_FOUND_CODE})`)
      : ok(answer.value);
  }

  /** Like `call`, for look-ups where NetEase answers code 404 for an unknown id: that is ok(undefined). */
  find<T extends z.ZodType>(
    path: string,
    data: Record<string, unknown>,
    schema: T,
    login?: NeteaseLogin,
  ): Promise<Result<z.output<T> | undefined>> {
    return this.request(path, data, schema, login, NOT_FOUND);
  }

  /** Like `find`, for asking who a login is: a dead login (code 301) is ok(undefined) too, not an error. */
  probe<T extends z.ZodType>(
    path: string,
    data: Record<string, unknown>,
    schema: T,
    login: NeteaseLogin,
  ): Promise<Result<z.output<T> | undefined>> {
    return this.request(path, data, schema, login, NOT_FOUND_OR_LOGGED_OUT);
  }

  private async request<T extends z.ZodType>(
    path: string,
    data: Record<string, unknown>,
    schema: T,
    login: NeteaseLogin | undefined,
    absentCodes: ReadonlySet<number>,
  ): Promise<Result<z.output<T> | undefined>> {
    const account = login ?? (await this.login());
    const json = await fetchJson(SERVICE, `${NETEASE_ORIGIN}${path}`, weapiRequest(data, account));
    if (!json.ok) return json;
    return readAnswer(json.value, path, schema, account !== undefined, absentCodes);
  }
}

/** The web player's request for a weapi call: the encrypted form, its headers and the login cookie. */
export function weapiRequest(data: Record<string, unknown>, login: NeteaseLogin | undefined): RequestInit {
  const form = weapi({ ...data, csrf_token: login?.csrf ?? '' });
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      referer: NETEASE_REFERER,
      'user-agent': BROWSER_USER_AGENT,
      ...(login && { cookie: login.cookie }),
    },
    body: new URLSearchParams({ ...form }).toString(),
  };
}

function readAnswer<T extends z.ZodType>(
  json: unknown,
  path: string,
  schema: T,
  loggedIn: boolean,
  absentCodes: ReadonlySet<number>,
): Result<z.output<T> | undefined> {
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) return err(`${SERVICE} answered ${path} in an unexpected shape`);
  const { code, message, msg } = envelope.data;
  if (absentCodes.has(code)) return ok(undefined);
  if (code === NEEDS_LOGIN_CODE)
    return err(loggedIn ? EXPIRED_LOGIN : `${SERVICE} needs a login for this; log in first`);
  if (code !== OK_CODE) {
    const reason = message || msg;
    return err(`${SERVICE} refused ${path} (code ${code}${reason ? `: ${reason}` : ''})`);
  }
  const data = schema.safeParse(json);
  return data.success ? ok(data.data) : err(`${SERVICE} answered ${path} in an unexpected shape`);
}
