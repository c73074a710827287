/**
 * One call to QQ Music's `musicu.fcg` gateway, asked as its phone app (qq-mobile-client.ts): a JSON
 * POST of `{comm, req_0: {module, method, param}}` whose answer carries a top-level `code` and
 * `req_0: {code, data}`. Every failure (network, HTTP status, error code, unexpected shape) comes back
 * as a Result with a sentence a listener can read; the codes QQ Music uses to turn a server away (its
 * risk control) say so in plain words and what the admin can do.
 *
 * Request and answer shapes, and the codes, from L-1124/QQMusicApi (core/client.py `request_api`,
 * `_vaildate_resp`, `_parse_cgi_item`: 2000 a request that must be signed, 2001 rate limited,
 * 1000/104400/104401 a dead login; modules/*.py: module and method names).
 */
import type { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { mobileRequest, QQ_SERVICE } from './qq-mobile-client';
import type { LoginLookup, QqLogin } from './qq-music-login';
import { EnvelopeSchema } from './qq-music-schemas';

/** `req_0.code`s QQ Music answers when the login cookie has expired or is incomplete. */
const LOGIN_EXPIRED_CODES: ReadonlySet<number> = new Set([1000, 104400, 104401]);
/** `req_0.code`s of QQ Music's risk control: a request it wants signed (2000), too many requests (2001). */
const RISK_CONTROL_CODES: ReadonlySet<number> = new Set([2000, 2001]);
/** The error of a request refused because the stored login no longer works. */
export const LOGIN_EXPIRED = 'the QQ Music login has expired; log in again';
export const RISK_CONTROL = `${QQ_SERVICE} is turning this server's requests away (its risk control); wait a while and try again, and log in to ${QQ_SERVICE} if it keeps happening`;

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
    const json = await mobileRequest(request, account, comm);
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
  if (RISK_CONTROL_CODES.has(code) || (answer && RISK_CONTROL_CODES.has(answer.code)))
    return err(RISK_CONTROL);
  if (code !== 0 || !answer) return err(`QQ Music refused the request (code ${code})`);
  if (LOGIN_EXPIRED_CODES.has(answer.code)) return err(LOGIN_EXPIRED);
  if (answer.code !== 0) return err(`QQ Music refused ${request.method} (code ${answer.code})`);
  const data = schema.safeParse(answer.data);
  return data.success ? ok(data.data) : err(`QQ Music answered ${request.method} in an unexpected shape`);
}
