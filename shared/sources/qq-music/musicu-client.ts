/**
 * One call to QQ Music's `musicu.fcg` gateway: a JSON POST of `{comm, req_0: {module, method, param}}`
 * whose answer carries a top-level `code` and `req_0: {code, data}`. Every failure (network, HTTP
 * status, error code, unexpected shape) comes back as a Result with a sentence a listener can read.
 *
 * Request and answer shapes from public clients: jsososo/QQMusicApi (routes/song.js: `comm` with
 * `uin`, `ct`, `cv`, `authst`; routes/album.js: the module/method/param request) and
 * L-1124/QQMusicApi (qqmusic_api/modules/*.py: module and method names; modules/login.py
 * `check_expired`: the codes meaning a dead login).
 */
import type { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { fetchJson } from '../http/fetch-json';
import type { LoginLookup, QqLogin } from './qq-music-login';
import { EnvelopeSchema } from './qq-music-schemas';

export const MUSICU_URL = 'https://u.y.qq.com/cgi-bin/musicu.fcg';
/** QQ Music refuses requests (API and audio CDN alike) that do not look like they come from its site. */
export const QQ_REFERER = 'https://y.qq.com/';
/** `req_0.code`s QQ Music answers when the login cookie has expired or is incomplete. */
const LOGIN_EXPIRED_CODES: ReadonlySet<number> = new Set([1000, 104400, 104401]);
/** The error of a request refused because the stored login no longer works. */
export const LOGIN_EXPIRED = 'the QQ Music login has expired; log in again';

export interface MusicuRequest {
  module: string;
  method: string;
  param: Record<string, unknown>;
}

export class MusicuClient {
  constructor(private readonly login: LoginLookup) {}

  /** The stored login, for callers that also need it outside the request (audio headers, filtering). */
  currentLogin(): Promise<QqLogin | undefined> {
    return this.login();
  }

  /** `comm` adds to the request's common part (a login exchange names its `tmeLoginType` there). */
  async call<T extends z.ZodType>(
    request: MusicuRequest,
    dataSchema: T,
    login?: QqLogin,
    comm?: Record<string, unknown>,
  ): Promise<Result<z.output<T>>> {
    const account = login ?? (await this.login());
    const body = {
      comm: {
        ct: 24,
        cv: 0,
        format: 'json',
        uin: account?.uin ?? '0',
        ...(account && { authst: account.musicKey }),
        ...comm,
      },
      req_0: request,
    };
    const json = await fetchJson('QQ Music', MUSICU_URL, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        referer: QQ_REFERER,
        'user-agent': BROWSER_USER_AGENT,
        ...(account && { cookie: account.cookie }),
      },
      body: JSON.stringify(body),
    });
    if (!json.ok) return json;
    return readAnswer(json.value, request, dataSchema);
  }
}

function readAnswer<T extends z.ZodType>(
  json: unknown,
  request: MusicuRequest,
  schema: T,
): Result<z.output<T>> {
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) return err(`QQ Music answered ${request.method} in an unexpected shape`);
  const { code, req_0: answer } = envelope.data;
  if (code !== 0 || !answer) return err(`QQ Music refused the request (code ${code})`);
  if (LOGIN_EXPIRED_CODES.has(answer.code)) return err(LOGIN_EXPIRED);
  if (answer.code !== 0) return err(`QQ Music refused ${request.method} (code ${answer.code})`);
  const data = schema.safeParse(answer.data);
  return data.success ? ok(data.data) : err(`QQ Music answered ${request.method} in an unexpected shape`);
}
