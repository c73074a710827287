/**
 * Tencent's QR login (ptlogin) as QQ Music's web login uses it: `ptqrshow` hands out the code's picture
 * and a `qrsig` cookie naming the attempt; `ptqrlogin`, asked with that cookie and its hash as
 * `ptqrtoken`, answers `ptuiCB('<code>', …)`: 66 waiting, 67 scanned, 65 expired, 68 refused on the
 * phone, 0 confirmed with a `check_sig` address carrying the account (`uin`) and a signature (`ptsigx`).
 * The picture is all Tencent gives: what it encodes is not handed out.
 *
 * Requests and codes from L-1124/QQMusicApi (qqmusic_api/modules/login.py `_get_qq_qr`,
 * `_check_qq_qr`, `QRCodeLoginEvents`; qqmusic_api/utils/common.py `hash33`).
 */
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { cookieValues, setCookies } from '../http/cookies';
import { fetchResponse, readBytes, readText } from '../http/fetch-json';
import type { QrStatus } from '../platform-login';

export const PTLOGIN_SERVICE = 'QQ login';
/** QQ Music's application id at Tencent's login, and its QQ Connect (OAuth) id. */
export const QQ_MUSIC_APPID = '716027609';
export const QQ_CONNECT_APPID = '100497308';
export const PTLOGIN_DOMAIN_ID = '383';
export const PTLOGIN_REFERER = 'https://xui.ptlogin2.qq.com/';
export const LOGIN_JUMP = 'https://graph.qq.com/oauth2.0/login_jump';

const STATES: Record<string, Exclude<QrStatus, 'confirmed'>> = {
  '66': 'waiting',
  '67': 'scanned',
  '65': 'expired',
  // Refused on the phone: the attempt is over, as an expired one is.
  '68': 'expired',
};

/** Tencent's string hash (the `ptqrtoken` of a `qrsig`, the `g_tk` of a `p_skey`): 31 bits. */
export function hash33(text: string, seed = 0): number {
  let hash = seed;
  for (const char of text) hash = (hash * 33 + char.charCodeAt(0)) % 0x80000000;
  return hash;
}

/** What every request to Tencent's login sends: its login page as Referer, a browser, the attempt's cookies. */
export const ptloginHeaders = (cookie?: string) => ({
  referer: PTLOGIN_REFERER,
  'user-agent': BROWSER_USER_AGENT,
  ...(cookie && { cookie }),
});

/** A new code: its picture (PNG data URL) and the `qrsig` naming the attempt. */
export async function showQrCode(): Promise<Result<{ picture: string; qrsig: string }>> {
  const query = new URLSearchParams({
    appid: QQ_MUSIC_APPID,
    e: '2',
    l: 'M',
    s: '3',
    d: '72',
    v: '4',
    t: String(Math.random()),
    daid: PTLOGIN_DOMAIN_ID,
    pt_3rd_aid: QQ_CONNECT_APPID,
  });
  const response = await fetchResponse(PTLOGIN_SERVICE, `https://ssl.ptlogin2.qq.com/ptqrshow?${query}`, {
    headers: ptloginHeaders(),
  });
  if (!response.ok) return response;
  const qrsig = cookieValues(setCookies(response.value)).get('qrsig');
  if (!qrsig) return err(`${PTLOGIN_SERVICE} handed out a QR code without its qrsig`);
  const png = await readBytes(PTLOGIN_SERVICE, response.value);
  if (!png.ok) return png;
  return ok({ picture: `data:image/png;base64,${png.value.toString('base64')}`, qrsig });
}

export type PtloginState =
  | { status: Exclude<QrStatus, 'confirmed'> }
  | { status: 'confirmed'; uin: string; ptsigx: string };

/** The attempt's state as `ptqrlogin` answers it. */
export async function askQrState(qrsig: string): Promise<Result<PtloginState>> {
  const query = new URLSearchParams({
    u1: LOGIN_JUMP,
    ptqrtoken: String(hash33(qrsig)),
    ptredirect: '0',
    h: '1',
    t: '1',
    g: '1',
    from_ui: '1',
    ptlang: '2052',
    action: `0-0-${Date.now()}`,
    js_ver: '20102616',
    js_type: '1',
    pt_uistyle: '40',
    aid: QQ_MUSIC_APPID,
    daid: PTLOGIN_DOMAIN_ID,
    pt_3rd_aid: QQ_CONNECT_APPID,
    has_onekey: '1',
  });
  const response = await fetchResponse(PTLOGIN_SERVICE, `https://ssl.ptlogin2.qq.com/ptqrlogin?${query}`, {
    headers: ptloginHeaders(`qrsig=${qrsig}`),
  });
  if (!response.ok) return response;
  const text = await readText(PTLOGIN_SERVICE, response.value);
  return text.ok ? readPtuiCallback(text.value) : text;
}

/** Reads `ptuiCB('<code>','0','<address>', …)`. */
export function readPtuiCallback(text: string): Result<PtloginState> {
  const call = /ptuiCB\((.*)\)/s.exec(text)?.[1];
  const args = call ? [...call.matchAll(/'((?:\\.|[^'\\])*)'/g)].map((m) => m[1] ?? '') : [];
  const [code, , address] = args;
  if (code === undefined) return err(`${PTLOGIN_SERVICE} answered the QR state in an unexpected shape`);
  const status = STATES[code];
  if (status) return ok({ status });
  if (code !== '0')
    return err(`${PTLOGIN_SERVICE} refused the QR login (code ${code}${args[4] ? `: ${args[4]}` : ''})`);
  const params = URL.canParse(address ?? '') ? new URL(address ?? '').searchParams : undefined;
  const uin = params?.get('uin');
  const ptsigx = params?.get('ptsigx');
  if (!uin || !ptsigx) return err(`${PTLOGIN_SERVICE} confirmed the QR login without its signature`);
  return ok({ status: 'confirmed', uin, ptsigx });
}
