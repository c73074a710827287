/**
 * One call to NetEase Cloud Music, as the client its path names sends it (netease-transport.ts: web
 * `/weapi/…`, desktop `/eapi/…`, app `/xeapi/…`), from the device netease-device.ts registered and with
 * the login cookie. Every answer carries a top-level `code` (200 = fine, 301 = a login is needed);
 * every failure (network, HTTP status, error code, unexpected shape) comes back as a Result with a
 * readable sentence, NetEase's risk refusal (-460) in plain words with what the admin can do.
 *
 * Request forms from NeteaseCloudMusicApiEnhanced/api-enhanced (util/request.js; the module files name
 * each call's form); the `code` handling and 301 for "needs login" from its util/request.js too, and
 * -460 ("检测到您的网络环境存在风险") from its issues (#8) and documentation (the "460 cheating"
 * note: servers abroad and some clouds meet it).
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { refusal as refused } from '../http/refusals';
import { anonymousDevice } from './netease-device';
import type { LoginLookup, NeteaseLogin } from './netease-login-shape';
import { SERVICE, send } from './netease-transport';

const OK_CODE = 200;
const NEEDS_LOGIN_CODE = 301;
const NOT_FOUND_CODE = 404;
const RISKY_NETWORK_CODE = -460;
/** "操作频繁": asked too often. */
const TOO_OFTEN_CODE = 405;

const NOT_FOUND: ReadonlySet<number> = new Set([NOT_FOUND_CODE]);
const NOT_FOUND_OR_LOGGED_OUT: ReadonlySet<number> = new Set([NOT_FOUND_CODE, NEEDS_LOGIN_CODE]);

/** What every caller says when the stored cookie no longer logs in. */
export const EXPIRED_LOGIN = refused.loginExpired(SERVICE);
/** NetEase's -460: it took this server's requests for a bot's. */
export const RISKY_NETWORK = `${SERVICE} refused this server's requests as coming from a risky network (code -460), as it often does for servers abroad or in data centres without a login; log in to ${SERVICE} with the QR code, or try again later`;

const EnvelopeSchema = z.object({
  code: z.coerce.number(),
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
    const answer = await send(path, data, account, await anonymousDevice());
    if (!answer.ok) return answer;
    return readAnswer(answer.value.json, path, schema, account !== undefined, absentCodes);
  }
}

/** The sentence for an answer code that is not one the caller expects; -460 in plain words. */
export function refusal(what: string, answer: z.output<typeof EnvelopeSchema>): string {
  if (answer.code === RISKY_NETWORK_CODE) return RISKY_NETWORK;
  const reason = answer.message || answer.msg;
  if (answer.code === TOO_OFTEN_CODE)
    return refused.rateLimited(SERVICE, `code ${answer.code}${reason ? `: ${reason}` : ''}`);
  return `${SERVICE} refused ${what} (code ${answer.code}${reason ? `: ${reason}` : ''})`;
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
  const { code } = envelope.data;
  if (absentCodes.has(code)) return ok(undefined);
  if (code === NEEDS_LOGIN_CODE) return err(loggedIn ? EXPIRED_LOGIN : refused.loginNeeded(SERVICE));
  if (code !== OK_CODE) return err(refusal(path, envelope.data));
  const data = schema.safeParse(json);
  return data.success ? ok(data.data) : err(`${SERVICE} answered ${path} in an unexpected shape`);
}
