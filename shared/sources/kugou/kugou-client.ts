/**
 * One signed call to Kugou Music's app API. Every request carries the app's parameters (`appid`,
 * `clientver`, `clienttime`), the device (`mid`, `dfid`, `uuid`), the login (`token`, `userid`) when
 * there is one, and a `signature` over all of them (kugou-signing.ts). Most calls go to
 * `gateway.kugou.com`, which forwards them to the backend service named in the `x-router` header; the
 * lyric and login hosts are asked directly. Gateway answers carry `status` (1 = fine) and `error_code`;
 * every failure (network, HTTP status, error code, unexpected shape) comes back as a readable sentence.
 *
 * Request shape from MakcRe/KuGouMusicApi (util/request.js: default parameters, the `dfid`/`mid`/
 * `clienttime` headers and the app's `kg-rc`, `kg-thash`, `kg-rec`, `kg-rf` marks on every request,
 * the Android User-Agent, `status`/`error_code` handling); the codes of a token Kugou no longer
 * accepts (20010, 20017, 20018) from its issues #149 and #175.
 */
import type { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { fetchResponse, readJson } from '../http/fetch-json';
import { isLogin, type KugouDevice, type KugouLogin, type LoginLookup, newDevice } from './kugou-login';
import { GatewayEnvelopeSchema } from './kugou-schemas';
import { APP_ID, androidSignature, CLIENT_VERSION, type Params, webSignature } from './kugou-signing';

export const GATEWAY_ORIGIN = 'https://gateway.kugou.com';
/** The QR login's host (web-signed), and the login service that renews tokens (app-signed). */
export const LOGIN_ORIGIN = 'https://login-user.kugou.com';
export const LOGIN_SERVICE_ORIGIN = 'https://login.user.kugou.com';
export const LYRICS_ORIGIN = 'https://lyrics.kugou.com';
/** The app's own User-Agent: the gateway serves app requests. */
export const ANDROID_USER_AGENT = 'Android15-1070-11083-46-0-DiscoveryDRADProtocol-wifi';
export const SERVICE = 'Kugou Music';
/** The marks the app puts on every request, by which Kugou's servers tell its traffic apart. */
export const APP_HEADERS = {
  'kg-rc': '1',
  'kg-thash': '5d816a0',
  'kg-rec': '1',
  'kg-rf': 'B9EDA08A64250DEFFBCADDEE00F8F25F',
} as const;
/** `error_code`s of a request whose token Kugou no longer accepts (expired, or logged in elsewhere). */
const LOGIN_REFUSED_CODES: ReadonlySet<number> = new Set([20010, 20017, 20018]);

/**
 * A refusal answered with this header is Kugou's security check (a slider captcha its app would show),
 * which a server cannot pass; the reference client only fakes the behaviour data a later check wants.
 */
const SECURITY_CHECK_HEADER = 'ssa-code';
export const SECURITY_CHECK = `${SERVICE} wants a security check (a captcha) before it answers this server; try again later, or log in to ${SERVICE} so requests come from an account`;

/** What every caller says when the stored token no longer logs in. */
export const EXPIRED_LOGIN = `the ${SERVICE} login has expired; log in again`;

export interface KugouRequest {
  /** The host, e.g. `GATEWAY_ORIGIN`. */
  origin: string;
  /** The path on it, e.g. `/v3/search/song`. */
  path: string;
  /** The backend service the gateway forwards to (`x-router`). */
  router?: string;
  query?: Params;
  /** A JSON body makes the request a POST; its text is part of the signature. */
  body?: unknown;
  /** `web` for the login host; the app's signature otherwise. */
  signing?: 'android' | 'web';
  /** Sends and signs only `query`, without the app, device and login parameters (the lyric search). */
  bare?: boolean;
  headers?: Record<string, string>;
}

export class KugouClient {
  /** The device anonymous requests come from, one per process. */
  private readonly anonymous = newDevice();

  constructor(private readonly login: LoginLookup) {}

  /** The stored (shared) login, for callers that also need it outside a request (refusals). */
  currentLogin(): Promise<KugouLogin | undefined> {
    return this.login();
  }

  /** Who a request comes from: `as` when given, else the stored login, else the anonymous device. */
  async sender(as?: KugouDevice): Promise<KugouDevice> {
    return as ?? (await this.login()) ?? this.anonymous;
  }

  /** The raw JSON answer of a request sent as `as` (see `sender`). */
  async fetch(request: KugouRequest, as?: KugouDevice): Promise<Result<unknown>> {
    const who = await this.sender(as);
    const params = request.bare ? { ...request.query } : { ...defaultParams(who), ...request.query };
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    params.signature =
      request.signing === 'web' ? webSignature(params) : androidSignature(params, body ?? '');
    const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]));
    const response = await fetchResponse(SERVICE, `${request.origin}${request.path}?${query}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'user-agent': ANDROID_USER_AGENT,
        ...APP_HEADERS,
        mid: who.mid,
        dfid: who.dfid,
        ...(params.clienttime !== undefined && { clienttime: String(params.clienttime) }),
        ...(request.router && { 'x-router': request.router }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...request.headers,
      },
      ...(body !== undefined && { body }),
    });
    if (!response.ok) return response;
    const json = await readJson(SERVICE, response.value);
    if (json.ok && response.value.headers.has(SECURITY_CHECK_HEADER) && isFailure(json.value))
      return err(SECURITY_CHECK);
    return json;
  }

  /** A request answered in the gateway's envelope (`status` 1): its `data`, parsed with `schema`. */
  async call<T extends z.ZodType>(
    request: KugouRequest,
    schema: T,
    as?: KugouDevice,
  ): Promise<Result<z.output<T>>> {
    const answer = await this.probe(request, schema, as);
    if (!answer.ok) return answer;
    return answer.value === undefined ? err(EXPIRED_LOGIN) : ok(answer.value);
  }

  /** Like `call`, for asking who a login is: a token Kugou refuses is ok(undefined), not an error. */
  async probe<T extends z.ZodType>(
    request: KugouRequest,
    schema: T,
    as?: KugouDevice,
  ): Promise<Result<z.output<T> | undefined>> {
    const who = await this.sender(as);
    const json = await this.fetch(request, who);
    if (!json.ok) return json;
    return readEnvelope(json.value, request.path, schema, isLogin(who));
  }
}

/** An answer saying the request failed: `status` 0 or a non-zero `error_code` (util/request.js). */
function isFailure(json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return false;
  const { status, error_code: code } = json as { status?: unknown; error_code?: unknown };
  return status === 0 || (typeof code === 'number' && code !== 0);
}

function defaultParams(who: KugouDevice): Params {
  return {
    dfid: who.dfid,
    mid: who.mid,
    uuid: '-',
    appid: APP_ID,
    clientver: CLIENT_VERSION,
    clienttime: Math.floor(Date.now() / 1000),
    ...(isLogin(who) && { token: who.token, userid: who.userid }),
  };
}

function readEnvelope<T extends z.ZodType>(
  json: unknown,
  path: string,
  schema: T,
  loggedIn: boolean,
): Result<z.output<T> | undefined> {
  const envelope = GatewayEnvelopeSchema.safeParse(json);
  if (!envelope.success) return err(`${SERVICE} answered ${path} in an unexpected shape`);
  const { status, error_code: code, data } = envelope.data;
  if (LOGIN_REFUSED_CODES.has(code))
    return loggedIn ? ok(undefined) : err(`${SERVICE} needs a login for this; log in first`);
  if (status !== 1 || code !== 0) return err(`${SERVICE} refused ${path} (code ${code || status})`);
  const parsed = schema.safeParse(data);
  return parsed.success ? ok(parsed.data) : err(`${SERVICE} answered ${path} in an unexpected shape`);
}
