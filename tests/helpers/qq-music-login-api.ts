/**
 * A stand-in (msw) for QQ Music's QR login: Tencent's `ptqrshow` (a PNG and a `qrsig` cookie) and
 * `ptqrlogin` (which insists on the `qrsig` cookie and its hash as `ptqrtoken`), `check_sig` (a
 * redirect setting `p_skey`), QQ Connect's `authorize` (which insists on `p_skey` and its `g_tk`, and
 * redirects with a code), and musicu's `QQLogin` exchange and account check (`GetLoginUserInfo`,
 * `GetHomepageHeader`), which answer only for music keys it handed out or was told about. A test
 * moves the attempt along with `scan`, `confirm` and `expire`. Anything else is refused.
 *
 * Shapes from L-1124/QQMusicApi; see tests/fixtures/qq-music/README.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import QRCode from 'qrcode';
import { afterEach } from 'vitest';
import { cookieValues } from '../../shared/sources/http/cookies';
import { MUSICU_URL } from '../../shared/sources/qq-music/qq-mobile-client';
import { hash33 } from '../../shared/sources/qq-music/qq-ptlogin';
import { useMswServer } from './msw-server';
import { mobileRequest, qimeiHandler, qqFixture, sessionAnswer, untrusted } from './qq-music-api';

type PtState = 'waiting' | 'scanned' | 'expired' | 'confirmed';
const ptAnswer = (state: PtState) =>
  readFileSync(join(import.meta.dirname, '../fixtures/qq-music', `ptqrlogin-${state}.txt`), 'utf8');
const CONNECT = qqFixture('qq-connect-login') as { req_0: { data: { musickey: string; musicid: number } } };
/** What the confirmed fixture's check_sig address carries. */
const SIGNED = { uin: '123456789', ptsigx: 'fixturesigx0123456789abcdef' };
const P_SKEY = 'fixture_p_skey-0001';
const CONNECT_CODE = 'FIXTURECONNECTCODE0001';
export const QQ_MUSIC_KEY = CONNECT.req_0.data.musickey;

/** A redirect setting cookies, as a plain Response so msw does not keep the cookies (see login-response.ts). */
function redirect(location: string, setCookies: string[] = []): Response {
  const headers = new Headers({ location });
  for (const line of setCookies) headers.append('set-cookie', line);
  return new Response(null, { status: 302, headers });
}

export function useQqMusicLoginApi() {
  let state: PtState = 'waiting';
  let issued = 0;
  const qrsigs = new Set<string>();
  /** Music keys QQ Music accepts. */
  const keys = new Set<string>([QQ_MUSIC_KEY]);
  const asked: string[] = [];
  afterEach(() => {
    asked.length = 0;
  });

  useMswServer(
    qimeiHandler,
    http.get('https://ssl.ptlogin2.qq.com/ptqrshow', async ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push('ptqrshow');
      if (
        query.get('appid') !== '716027609' ||
        request.headers.get('referer') !== 'https://xui.ptlogin2.qq.com/'
      )
        return new HttpResponse('bad request', { status: 400 });
      const qrsig = `fixtureqrsig${++issued}`;
      qrsigs.add(qrsig);
      state = 'waiting';
      const png = await QRCode.toBuffer('https://txz.qq.com/p?k=fixture&f=716027609');
      const headers = new Headers({ 'content-type': 'image/png' });
      headers.append('set-cookie', `qrsig=${qrsig}; Path=/; Domain=ptlogin2.qq.com;`);
      return new Response(new Uint8Array(png), { headers });
    }),
    http.get('https://ssl.ptlogin2.qq.com/ptqrlogin', ({ request }) => {
      asked.push('ptqrlogin');
      const qrsig = cookieValues(request.headers.get('cookie') ?? '').get('qrsig') ?? '';
      const token = new URL(request.url).searchParams.get('ptqrtoken');
      if (!qrsigs.has(qrsig) || token !== String(hash33(qrsig)))
        return HttpResponse.text("ptuiCB('65','0','','0','二维码已失效。', '')");
      return HttpResponse.text(ptAnswer(state));
    }),
    http.get('https://ssl.ptlogin2.graph.qq.com/check_sig', ({ request }) => {
      asked.push('check_sig');
      const query = new URL(request.url).searchParams;
      if (query.get('uin') !== SIGNED.uin || query.get('ptsigx') !== SIGNED.ptsigx)
        return redirect('https://graph.qq.com/oauth2.0/login_jump');
      return redirect('https://graph.qq.com/oauth2.0/login_jump', [
        `p_skey=${P_SKEY}; PATH=/; DOMAIN=graph.qq.com;`,
        `p_uin=o0${SIGNED.uin}; PATH=/; DOMAIN=graph.qq.com;`,
        'pt4_token=fixture_pt4_token; PATH=/; DOMAIN=graph.qq.com;',
      ]);
    }),
    http.post('https://graph.qq.com/oauth2.0/authorize', async ({ request }) => {
      asked.push('authorize');
      const form = new URLSearchParams(await request.text());
      const pSkey = cookieValues(request.headers.get('cookie') ?? '').get('p_skey');
      if (
        pSkey !== P_SKEY ||
        form.get('g_tk') !== String(hash33(P_SKEY, 5381)) ||
        form.get('client_id') !== '100497308'
      )
        return redirect('https://graph.qq.com/oauth2.0/show?which=error');
      return redirect(
        `https://y.qq.com/portal/wx_redirect.html?login_type=1&surl=https://y.qq.com/&code=${CONNECT_CODE}&state=state`,
      );
    }),
    http.post(MUSICU_URL, async ({ request }) => {
      const body = mobileRequest(await request.json(), request.headers);
      if (!body) return untrusted();
      const session = sessionAnswer(body);
      if (session) return session;
      const { module, method, param } = body.req_0;
      asked.push(method);
      if (module === 'QQConnectLogin.LoginServer' && method === 'QQLogin')
        return body.comm.tmeLoginType === 2 && param.code === CONNECT_CODE
          ? HttpResponse.json(CONNECT)
          : HttpResponse.json({ code: 0, req_0: { code: 20271, data: {} } });
      if (!keys.has(body.comm.authst ?? ''))
        return HttpResponse.json({ code: 0, req_0: { code: 1000, data: {} } });
      if (method === 'GetLoginUserInfo') return HttpResponse.json(qqFixture('login-user-info') as object);
      if (method === 'GetHomepageHeader') return HttpResponse.json(qqFixture('homepage') as object);
      return HttpResponse.json({ code: 500001 });
    }),
  );

  return {
    /** The steps asked, in order (ptqrshow, ptqrlogin, check_sig, authorize, musicu methods). */
    asked,
    scan: () => {
      state = 'scanned';
    },
    confirm: () => {
      state = 'confirmed';
    },
    expire: () => {
      state = 'expired';
    },
    /** A music key QQ Music accepts (or, with `false`, no longer accepts). */
    acceptKey(key: string, accepted = true) {
      if (accepted) keys.add(key);
      else keys.delete(key);
    },
  };
}
