/**
 * A stand-in (msw) for Bilibili's web cookie refresh: `cookie/info` (whether the login wants renewing),
 * the `correspond/1/<path>` page with the one-time `refresh_csrf` (only for a path that is 128 bytes of
 * hex, as RSA-OAEP with Bilibili's 1024-bit key makes it), `cookie/refresh` (checks the CSRF token, the
 * one-time token, `source=main_web` and the login's refresh token; sets the new login cookies and
 * answers the next refresh token) and `confirm/refresh` (checks the new cookie's CSRF token and the old
 * refresh token). A test names the logins Bilibili knows with `account`; any other `SESSDATA` is not
 * logged in. `down()` makes every path answer HTTP 503.
 *
 * Shapes from SocialSisterYi/bilibili-API-collect; see tests/fixtures/bilibili/README.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { cookieValues } from '../../shared/sources/http/cookies';
import { bilibiliFixture } from './bilibili-api';
import { jsonSettingCookies } from './login-response';
import { useMswServer } from './msw-server';

const PASSPORT = 'https://passport.bilibili.com/x/passport-login/web';
const CORRESPOND = 'https://www.bilibili.com/correspond/1';
const CORRESPOND_PAGE = readFileSync(
  join(import.meta.dirname, '../fixtures/bilibili/correspond.html'),
  'utf8',
);
const REFRESH_CSRF = /<div id="1-name">(\w+)<\/div>/.exec(CORRESPOND_PAGE)?.[1] ?? '';
const NEXT_REFRESH_TOKEN = (bilibiliFixture('cookie-refresh') as { data: { refresh_token: string } }).data
  .refresh_token;

export interface BilibiliAccount {
  sessdata: string;
  biliJct: string;
  refreshToken: string;
  /** Whether `cookie/info` says the cookie wants renewing. */
  wantsRefresh: boolean;
  /** The SESSDATA a renewal sets. */
  renewedSessdata: string;
}

export interface BilibiliRefreshRequest {
  path: string;
  cookie: string;
  form?: Record<string, string>;
}

const renewedCookies = (sessdata: string) => [
  `SESSDATA=${sessdata}; Path=/; Domain=bilibili.com; Expires=Wed, 15 Nov 2034 07:34:10 GMT; HttpOnly; Secure`,
  `bili_jct=jct-${sessdata}; Path=/; Domain=bilibili.com; Expires=Wed, 15 Nov 2034 07:34:10 GMT`,
  'DedeUserID=40000001; Path=/; Domain=bilibili.com; Expires=Wed, 15 Nov 2034 07:34:10 GMT',
  'DedeUserID__ckMd5=fixtureckmd5; Path=/; Domain=bilibili.com; Expires=Wed, 15 Nov 2034 07:34:10 GMT',
  `sid=sid-${sessdata}; Path=/; Domain=bilibili.com; Expires=Wed, 15 Nov 2034 07:34:10 GMT`,
];

export function useBilibiliRefreshApi() {
  const requests: BilibiliRefreshRequest[] = [];
  /** Accounts by their current SESSDATA. */
  const accounts = new Map<string, BilibiliAccount>();
  /** Old refresh tokens confirmed, i.e. cookies retired. */
  const confirmed: string[] = [];
  let unreachable = false;
  afterEach(() => {
    requests.length = 0;
    confirmed.length = 0;
    unreachable = false;
  });

  const asked = async (request: Request) => {
    const form =
      request.method === 'POST' ? Object.fromEntries(new URLSearchParams(await request.text())) : undefined;
    const cookie = request.headers.get('cookie') ?? '';
    requests.push({ path: new URL(request.url).pathname, cookie, ...(form && { form }) });
    const values = cookieValues(cookie);
    return { form: form ?? {}, values, account: accounts.get(values.get('SESSDATA') ?? '') };
  };
  const loggedOut = () => HttpResponse.json(bilibiliFixture('cookie-info-logged-out'));
  const failed = (code: number) => HttpResponse.json({ code, message: String(code), ttl: 1 });

  useMswServer(
    http.all(/^https:\/\/(passport|www)\.bilibili\.com\//, () =>
      unreachable ? new HttpResponse('busy', { status: 503 }) : undefined,
    ),
    http.get(`${PASSPORT}/cookie/info`, async ({ request }) => {
      const { account } = await asked(request);
      if (!account) return loggedOut();
      const answer = bilibiliFixture('cookie-info') as { data: object };
      return HttpResponse.json({ ...answer, data: { ...answer.data, refresh: account.wantsRefresh } });
    }),
    http.get(`${CORRESPOND}/:path`, async ({ request, params }) => {
      const { account } = await asked(request);
      if (!account || !/^[0-9a-f]{256}$/.test(String(params.path)))
        return new HttpResponse('<html>404</html>', {
          status: 404,
          headers: { 'content-type': 'text/html' },
        });
      return new HttpResponse(CORRESPOND_PAGE, { headers: { 'content-type': 'text/html' } });
    }),
    http.post(`${PASSPORT}/cookie/refresh`, async ({ request }) => {
      const { form, values, account } = await asked(request);
      if (!account) return failed(-101);
      if (form.csrf !== values.get('bili_jct') || form.csrf !== account.biliJct) return failed(-111);
      if (form.source !== 'main_web' || form.refresh_csrf !== REFRESH_CSRF) return failed(86095);
      if (form.refresh_token !== account.refreshToken) return failed(86095);
      accounts.delete(account.sessdata);
      accounts.set(account.renewedSessdata, {
        ...account,
        sessdata: account.renewedSessdata,
        biliJct: `jct-${account.renewedSessdata}`,
        refreshToken: NEXT_REFRESH_TOKEN,
        wantsRefresh: false,
      });
      return jsonSettingCookies(bilibiliFixture('cookie-refresh'), renewedCookies(account.renewedSessdata));
    }),
    http.post(`${PASSPORT}/confirm/refresh`, async ({ request }) => {
      const { form, values, account } = await asked(request);
      if (!account) return failed(-101);
      if (form.csrf !== values.get('bili_jct')) return failed(-111);
      if (!form.refresh_token) return failed(-400);
      confirmed.push(form.refresh_token);
      return HttpResponse.json(bilibiliFixture('cookie-confirm'));
    }),
  );

  return {
    requests,
    confirmed,
    refreshCsrf: REFRESH_CSRF,
    nextRefreshToken: NEXT_REFRESH_TOKEN,
    account(account: BilibiliAccount) {
      accounts.set(account.sessdata, account);
    },
    down() {
      unreachable = true;
    },
  };
}
