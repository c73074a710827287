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
import type { QrLogin, QrStatus } from '../platform-login';
import { refusal } from './netease-client';
import { neteaseCookieLogin } from './netease-cookie-login';
import { LoginAnswerSchema, loginCall } from './netease-login-call';
import { SERVICE } from './netease-transport';

const QR_TYPE = 3;
const UnikeySchema = LoginAnswerSchema.extend({ unikey: z.string().nullish() });
const WAITING: Record<number, Exclude<QrStatus, 'confirmed'>> = {
  800: 'expired',
  801: 'waiting',
  802: 'scanned',
};
const CONFIRMED = 803;

export const neteaseQrLogin: QrLogin = {
  async start() {
    const key = await loginCall('/eapi/login/qrcode/unikey', { type: QR_TYPE }, UnikeySchema);
    if (!key.ok) return key;
    const { unikey } = key.value.answer;
    if (key.value.answer.code !== 200 || !unikey) return err(refusal('a QR login key', key.value.answer));
    return ok({ qrUrl: `https://music.163.com/login?codekey=${unikey}`, state: { unikey } });
  },

  async poll(state) {
    if (!state.unikey) return err(`the ${SERVICE} QR attempt has no key`);
    const asked = await loginCall(
      '/eapi/login/qrcode/client/login',
      { key: state.unikey, type: QR_TYPE },
      LoginAnswerSchema,
    );
    if (!asked.ok) return asked;
    const { answer, cookie } = asked.value;
    const status = WAITING[answer.code];
    if (status) return ok({ status });
    if (answer.code !== CONFIRMED) return err(refusal('the QR login', answer));
    const login = await neteaseCookieLogin.check(cookie);
    return login.ok ? ok({ status: 'confirmed', ...login.value }) : login;
  },
};
