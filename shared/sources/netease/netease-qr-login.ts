/**
 * NetEase Cloud Music's QR login, as the desktop client makes it (eapi, type 3): `/eapi/login/qrcode/
 * unikey` hands out a key, the code shows `https://music.163.com/login?codekey=<key>` for the NetEase
 * app to scan, and `/eapi/login/qrcode/client/login` (the key, type 3) answers the attempt's state as
 * its `code`: 800 expired, 801 waiting, 802 scanned, 803 confirmed, the login cookie then in Set-Cookie.
 * The web form (type 1) is the one NetEase began to freeze logins for.
 *
 * Shapes from NeteaseCloudMusicApiEnhanced/api-enhanced (module/login_qr_key.js, login_qr_create.js,
 * login_qr_check.js; its commit 016fe7c "尝试修复登录冻结问题" moved both to the eapi form with type 3).
 */
import { z } from 'zod';
import { err, ok } from '../../result';
import { QrLoginMachine } from '../login/qr-login-machine';
import type { QrLogin } from '../platform-login';
import { refusal } from './netease-client';
import { neteaseCookieLogin } from './netease-cookie-login';
import { type LoginAnswer, LoginAnswerSchema, loginCall } from './netease-login-call';
import { SERVICE } from './netease-transport';

const QR_TYPE = 3;
const UnikeySchema = LoginAnswerSchema.extend({ unikey: z.string().nullish() });

export const neteaseQrLogin: QrLogin = new QrLoginMachine<LoginAnswer<z.output<typeof LoginAnswerSchema>>>({
  async start() {
    const key = await loginCall('/eapi/login/qrcode/unikey', { type: QR_TYPE }, UnikeySchema);
    if (!key.ok) return key;
    const { unikey } = key.value.answer;
    if (key.value.answer.code !== 200 || !unikey) return err(refusal('a QR login key', key.value.answer));
    return ok({ qrUrl: `https://music.163.com/login?codekey=${unikey}`, state: { unikey } });
  },
  needs: ['unikey'],
  incomplete: `the ${SERVICE} QR attempt has no key`,
  ask: (state) =>
    loginCall(
      '/eapi/login/qrcode/client/login',
      { key: state.unikey ?? '', type: QR_TYPE },
      LoginAnswerSchema,
    ),
  codeOf: ({ answer }) => answer.code,
  pending: { 800: 'expired', 801: 'waiting', 802: 'scanned' },
  confirmed: 803,
  refused: ({ answer }) => refusal('the QR login', answer),
  confirm: ({ cookie }) => neteaseCookieLogin.check(cookie),
});
