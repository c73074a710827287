/**
 * QQ Music's QR login: Tencent's QR login (qq-ptlogin.ts) names the account once the phone confirms;
 * its `check_sig` address then gives the login cookies (`p_skey`), QQ Connect's `authorize` turns them
 * into an authorization code for QQ Music's app (in the redirect's Location), and musicu's
 * `QQConnectLogin.LoginServer`/`QQLogin` exchanges that code for the music login (`musicid`,
 * `musickey`), stored as the cookie the rest of the adapter reads (`uin`, `qqmusic_key`, `qm_keyst`)
 * together with what renewing it needs (`refresh_key`, `refresh_token`, …; see qq-music-login-cookie.ts).
 *
 * Requests from L-1124/QQMusicApi (qqmusic_api/modules/login.py `_authorize_qq_qr`;
 * qqmusic_api/models/request.py `Credential`: `musicid`, `musickey`, `encryptUin`).
 */
import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from '../../result';
import { cookieValues, setCookies } from '../http/cookies';
import { fetchResponse } from '../http/fetch-json';
import { QrLoginMachine } from '../login/qr-login-machine';
import type { QrLogin } from '../platform-login';
import { loginlessMusicu, qqCookieLogin } from './qq-music-cookie-login';
import { MusicLoginSchema, QQ_ACCOUNT_LOGIN_TYPE, renewalCookie } from './qq-music-login-cookie';
import {
  askQrState,
  hash33,
  LOGIN_JUMP,
  PTLOGIN_DOMAIN_ID,
  PTLOGIN_SERVICE,
  type PtloginState,
  ptloginHeaders,
  QQ_CONNECT_APPID,
  QQ_MUSIC_APPID,
  showQrCode,
} from './qq-ptlogin';

/** `g_tk` is the hash of `p_skey` from this seed. */
const G_TK_SEED = 5381;
const QQ_MUSIC_REDIRECT = 'https://y.qq.com/portal/wx_redirect.html?login_type=1&surl=https://y.qq.com/';

/** The login cookies of a confirmed attempt (`p_skey` among them). */
async function signedCookies(uin: string, ptsigx: string): Promise<Result<string>> {
  const query = new URLSearchParams({
    uin,
    pttype: '1',
    service: 'ptqrlogin',
    nodirect: '0',
    ptsigx,
    s_url: LOGIN_JUMP,
    ptlang: '2052',
    ptredirect: '100',
    aid: QQ_MUSIC_APPID,
    daid: PTLOGIN_DOMAIN_ID,
    j_later: '0',
    low_login_hour: '0',
    regmaster: '0',
    pt_login_type: '3',
    pt_aid: '0',
    pt_aaid: '16',
    pt_light: '0',
    pt_3rd_aid: QQ_CONNECT_APPID,
  });
  const signed = await fetchResponse(
    PTLOGIN_SERVICE,
    `https://ssl.ptlogin2.graph.qq.com/check_sig?${query}`,
    {
      headers: ptloginHeaders(),
      redirect: 'manual',
    },
  );
  if (!signed.ok) return signed;
  const cookies = setCookies(signed.value);
  return cookieValues(cookies).get('p_skey')
    ? ok(cookies)
    : err(`${PTLOGIN_SERVICE} did not sign the QR login in`);
}

/** QQ Connect's authorization code for QQ Music, asked as the signed-in account. */
async function authorizationCode(cookies: string): Promise<Result<string>> {
  const form = new URLSearchParams({
    response_type: 'code',
    client_id: QQ_CONNECT_APPID,
    redirect_uri: QQ_MUSIC_REDIRECT,
    scope: 'get_user_info,get_app_friends',
    state: 'state',
    switch: '',
    from_ptlogin: '1',
    src: '1',
    update_auth: '1',
    openapi: '1010_1030',
    g_tk: String(hash33(cookieValues(cookies).get('p_skey') ?? '', G_TK_SEED)),
    auth_time: String(Date.now()),
    ui: randomUUID(),
  });
  const authorized = await fetchResponse(PTLOGIN_SERVICE, 'https://graph.qq.com/oauth2.0/authorize', {
    method: 'POST',
    headers: { ...ptloginHeaders(cookies), 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  if (!authorized.ok) return authorized;
  const location = authorized.value.headers.get('location') ?? '';
  const code = URL.canParse(location) ? new URL(location).searchParams.get('code') : null;
  return code ? ok(code) : err(`${PTLOGIN_SERVICE} did not authorize QQ Music`);
}

/** The music login of a confirmed attempt, as the cookie the adapter reads. */
async function musicLoginCookie(uin: string, ptsigx: string): Promise<Result<string>> {
  const cookies = await signedCookies(uin, ptsigx);
  if (!cookies.ok) return cookies;
  const code = await authorizationCode(cookies.value);
  if (!code.ok) return code;
  const login = await loginlessMusicu.call(
    { module: 'QQConnectLogin.LoginServer', method: 'QQLogin', param: { code: code.value } },
    MusicLoginSchema,
    undefined,
    { tmeLoginType: QQ_ACCOUNT_LOGIN_TYPE },
  );
  if (!login.ok) return login;
  const { musicid, musickey } = login.value;
  const account = `uin=${musicid}; qqmusic_key=${musickey}; qm_keyst=${musickey}`;
  return ok(`${account}; ${renewalCookie(login.value, QQ_ACCOUNT_LOGIN_TYPE)}`);
}

export const qqMusicQrLogin: QrLogin = new QrLoginMachine<PtloginState>({
  async start() {
    const shown = await showQrCode();
    if (!shown.ok) return shown;
    const { picture, qrsig } = shown.value;
    return ok({ qrUrl: picture, qrImg: picture, state: { qrsig } });
  },
  needs: ['qrsig'],
  incomplete: 'the QQ Music QR attempt has no qrsig',
  ask: (state) => askQrState(state.qrsig ?? ''),
  // Tencent's own codes are already read into SPEC's states (qq-ptlogin.ts).
  codeOf: (asked) => asked.status,
  pending: { waiting: 'waiting', scanned: 'scanned', expired: 'expired' },
  confirmed: 'confirmed',
  refused: (asked) => `${PTLOGIN_SERVICE} answered the QR login with an unknown state (${asked.status})`,
  async confirm(asked) {
    if (asked.status !== 'confirmed') return err(`${PTLOGIN_SERVICE} did not confirm the QR login`);
    const cookie = await musicLoginCookie(asked.uin, asked.ptsigx);
    if (!cookie.ok) return cookie;
    return qqCookieLogin.check(cookie.value);
  },
});
