/**
 * One GET to Bilibili's web API (`https://api.bilibili.com/x/…`) as the site's own pages make it: a
 * browser User-Agent, the site's Referer, the login cookie when there is one and a guest `buvid3`
 * otherwise (search is refused without one), and a WBI signature on `/wbi/` routes. The signing keys
 * come from `nav`, are kept for an hour (Bilibili rotates them daily) and are fetched again at once
 * when a signed call is refused. Every failure comes back as a Result with a readable sentence.
 *
 * Request shape from SocialSisterYi/bilibili-API-collect (docs/misc/sign/wbi.md: keys from `nav`,
 * refresh advice, the `v_voucher` answer to a bad signature; docs/misc/buvid3_4.md: guest `buvid3`
 * and `buvid4` from `/x/frontend/finger/spi`; docs/search/search_request.md: search needs cookies).
 */
import type { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { fetchJson } from '../http/fetch-json';
import { errorSentence, riskControlSentence, SERVICE } from './bilibili-errors';
import type { BilibiliLogin, LoginLookup } from './bilibili-login';
import {
  EnvelopeSchema,
  type NavData,
  NavDataSchema,
  SpiDataSchema,
  VoucherSchema,
} from './bilibili-schemas';
import { keyFromUrl, mixinKey, type QueryParams, signQuery } from './wbi';

export const BILIBILI_API = 'https://api.bilibili.com';
/** Bilibili's API and its audio CDN refuse requests that do not come from its site. */
export const BILIBILI_REFERER = 'https://www.bilibili.com/';
/** The keys change once a day; an hour keeps a stale key from failing many calls in a row. */
const KEY_LIFETIME_MS = 60 * 60 * 1000;
/** Codes with which a signed route refuses a signature made with stale keys (besides the voucher). */
const REFUSED_SIGNATURE_CODES = [-403, -352];
const RISK_CONTROL_STATUS = `${SERVICE} answered HTTP 412`;

export interface BilibiliRequest {
  /** e.g. `/x/web-interface/view` */
  path: string;
  params: QueryParams;
  /** What the call is, for error sentences ("search", "the video"). */
  what: string;
  /** A `/wbi/` route: add `wts` and `w_rid`. */
  signed?: boolean;
}

type Envelope = z.infer<typeof EnvelopeSchema>;
/** An answer's envelope, and whether it was asked with the login (for the error sentence). */
type Answer = Envelope & { loggedIn: boolean };

export class BilibiliClient {
  private keys: { mixin: string; fetchedAt: number } | undefined;
  private guestCookie: string | undefined;

  constructor(private readonly login: LoginLookup) {}

  currentLogin(): Promise<BilibiliLogin | undefined> {
    return this.login();
  }

  /** The navigation bar's account answer: who is logged in, and the current signing keys. */
  async nav(): Promise<Result<NavData>> {
    const answer = await this.send(`${BILIBILI_API}/x/web-interface/nav`, await this.login());
    if (!answer.ok) return answer;
    // Guests get code -101 ("not logged in") together with the keys.
    const data = NavDataSchema.safeParse(answer.value.data);
    return data.success ? ok(data.data) : err(`${SERVICE} answered nav in an unexpected shape`);
  }

  /** Calls the API; any error code is an error. */
  async call<T extends z.ZodType>(request: BilibiliRequest, schema: T): Promise<Result<z.output<T>>> {
    const answer = await this.answer(request);
    return answer.ok ? readData(answer.value, request.what, schema) : answer;
  }

  /** Like `call`, for look-ups where Bilibili answers one of `unknownCodes` for an unknown id: ok(undefined). */
  async find<T extends z.ZodType>(
    request: BilibiliRequest,
    schema: T,
    unknownCodes: readonly number[],
  ): Promise<Result<z.output<T> | undefined>> {
    const answer = await this.answer(request);
    if (!answer.ok) return answer;
    return unknownCodes.includes(answer.value.code)
      ? ok(undefined)
      : readData(answer.value, request.what, schema);
  }

  private async answer(request: BilibiliRequest): Promise<Result<Answer>> {
    const login = await this.login();
    const answer = await this.fetchAnswer(request, login);
    return answer.ok ? ok({ ...answer.value, loggedIn: login !== undefined }) : answer;
  }

  /** The answer's envelope; a signed call refused with cached keys is signed again with fresh ones. */
  private async fetchAnswer(
    request: BilibiliRequest,
    login: BilibiliLogin | undefined,
  ): Promise<Result<Envelope>> {
    const { path, params, signed } = request;
    if (!signed) return this.send(`${BILIBILI_API}${path}?${plainQuery(params)}`, login);
    const signedUrl = (key: string) => `${BILIBILI_API}${path}?${signQuery(params, key, wts())}`;
    const cached = this.keys !== undefined && Date.now() - this.keys.fetchedAt < KEY_LIFETIME_MS;
    const key = await this.mixinKey(!cached);
    if (!key.ok) return key;
    const answer = await this.send(signedUrl(key.value), login);
    if (!cached || !answer.ok || !isRefusedSignature(answer.value)) return answer;
    const fresh = await this.mixinKey(true);
    return fresh.ok ? this.send(signedUrl(fresh.value), login) : fresh;
  }

  private async mixinKey(refresh: boolean): Promise<Result<string>> {
    if (this.keys && !refresh) return ok(this.keys.mixin);
    const nav = await this.nav();
    if (!nav.ok) return nav;
    const { img_url, sub_url } = nav.value.wbi_img;
    this.keys = { mixin: mixinKey(keyFromUrl(img_url), keyFromUrl(sub_url)), fetchedAt: Date.now() };
    return ok(this.keys.mixin);
  }

  private async send(url: string, login: BilibiliLogin | undefined): Promise<Result<Envelope>> {
    const cookie = [login?.cookie, login?.hasBuvid ? undefined : await this.guestBuvid()].filter(Boolean);
    const json = await fetchJson(SERVICE, url, {
      headers: {
        referer: BILIBILI_REFERER,
        'user-agent': BROWSER_USER_AGENT,
        ...(cookie.length > 0 && { cookie: cookie.join('; ') }),
      },
    });
    if (!json.ok) return json.error === RISK_CONTROL_STATUS ? err(riskControlSentence('HTTP 412')) : json;
    const envelope = EnvelopeSchema.safeParse(json.value);
    return envelope.success ? ok(envelope.data) : err(`${SERVICE} answered in an unexpected shape`);
  }

  /**
   * A guest browser id (`buvid3`/`buvid4` cookies), asked for once. Without it the calls still go
   * out: only search insists on it, and its refusal then says so.
   */
  private async guestBuvid(): Promise<string | undefined> {
    if (this.guestCookie) return this.guestCookie;
    const json = await fetchJson(SERVICE, `${BILIBILI_API}/x/frontend/finger/spi`, {
      headers: { referer: BILIBILI_REFERER, 'user-agent': BROWSER_USER_AGENT },
    });
    const answer = json.ok ? EnvelopeSchema.safeParse(json.value) : undefined;
    const ids = answer?.success ? SpiDataSchema.safeParse(answer.data.data) : undefined;
    if (!ids?.success) return undefined;
    this.guestCookie = `buvid3=${ids.data.b_3}${ids.data.b_4 ? `; buvid4=${ids.data.b_4}` : ''}`;
    return this.guestCookie;
  }
}

const wts = () => Math.floor(Date.now() / 1000);

const plainQuery = (params: QueryParams) =>
  new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)])).toString();

function readData<T extends z.ZodType>(answer: Answer, what: string, schema: T): Result<z.output<T>> {
  const { code, message, data, loggedIn } = answer;
  if (code !== 0) return err(errorSentence(code, what, loggedIn, message));
  if (VoucherSchema.safeParse(data).success) return err(riskControlSentence('it asked for a captcha'));
  const parsed = schema.safeParse(data);
  return parsed.success ? ok(parsed.data) : err(`${SERVICE} answered ${what} in an unexpected shape`);
}

function isRefusedSignature({ code, data }: Envelope): boolean {
  return REFUSED_SIGNATURE_CODES.includes(code) || VoucherSchema.safeParse(data).success;
}
