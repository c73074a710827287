/**
 * Bilibili's QR login for the web: `passport-login/web/qrcode/generate` hands out the URL the code
 * shows and a `qrcode_key`; `passport-login/web/qrcode/poll` with that key answers the attempt's state
 * in `data.code`: 86101 waiting, 86090 scanned, 86038 expired, 0 confirmed with the login cookies
 * (`SESSDATA`, `bili_jct`, `DedeUserID`, …) in Set-Cookie and the `refresh_token` that later renews
 * them, stored with the cookie (bilibili-login-refresh.ts).
 *
 * Shapes from SocialSisterYi/bilibili-API-collect (docs/login/login_action/QR.md).
 */
import { z } from 'zod';
import { err, ok } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { setCookies } from '../http/cookies';
import { fetchJson, fetchResponse, readJson } from '../http/fetch-json';
import { QrLoginMachine } from '../login/qr-login-machine';
import type { QrLogin } from '../platform-login';
import { BILIBILI_REFERER } from './bilibili-client';
import { bilibiliCookieLogin } from './bilibili-cookie-login';
import { SERVICE } from './bilibili-errors';
import { withRefreshToken } from './bilibili-login-refresh';

const PASSPORT = 'https://passport.bilibili.com/x/passport-login/web/qrcode';
const init = { headers: { referer: BILIBILI_REFERER, 'user-agent': BROWSER_USER_AGENT } };

const GeneratedSchema = z.object({
  code: z.literal(0),
  data: z.object({ url: z.string().min(1), qrcode_key: z.string().min(1) }),
});
const PolledSchema = z.object({
  code: z.literal(0),
  data: z.object({
    code: z.number(),
    message: z.string().optional(),
    refresh_token: z.string().optional(),
  }),
});

type Polled = z.infer<typeof PolledSchema>['data'] & { cookie: string };

export const bilibiliQrLogin: QrLogin = new QrLoginMachine<Polled>({
  async start() {
    const json = await fetchJson(SERVICE, `${PASSPORT}/generate`, init);
    if (!json.ok) return json;
    const generated = GeneratedSchema.safeParse(json.value);
    if (!generated.success) return err(`${SERVICE} did not hand out a QR login code`);
    const { url, qrcode_key } = generated.data.data;
    return ok({ qrUrl: url, state: { qrcodeKey: qrcode_key } });
  },
  needs: ['qrcodeKey'],
  incomplete: `the ${SERVICE} QR attempt has no key`,
  async ask(state) {
    const query = new URLSearchParams({ qrcode_key: state.qrcodeKey ?? '' });
    const response = await fetchResponse(SERVICE, `${PASSPORT}/poll?${query}`, init);
    if (!response.ok) return response;
    const json = await readJson(SERVICE, response.value);
    if (!json.ok) return json;
    const polled = PolledSchema.safeParse(json.value);
    if (!polled.success) return err(`${SERVICE} answered the QR login poll in an unexpected shape`);
    return ok({ ...polled.data.data, cookie: setCookies(response.value) });
  },
  codeOf: (polled) => polled.code,
  pending: { 86101: 'waiting', 86090: 'scanned', 86038: 'expired' },
  confirmed: 0,
  refused: ({ code, message }) =>
    `${SERVICE} refused the QR login (code ${code}${message ? `: ${message}` : ''})`,
  async confirm({ cookie, refresh_token }) {
    const login = await bilibiliCookieLogin.check(cookie);
    if (!login.ok) return login;
    const { credential, profile } = login.value;
    return ok({
      credential: refresh_token ? withRefreshToken(credential, refresh_token) : credential,
      profile,
    });
  },
});
