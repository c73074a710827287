/**
 * NetEase Cloud Music's SMS login: `/weapi/sms/captcha/sent` texts a code to the phone (`ctcode` and
 * `cellphone`), and `/weapi/login/cellphone` with that code as `captcha` logs in, the login cookie in
 * Set-Cookie. Phone numbers are taken as mainland China numbers (country code 86), as NetEase's own
 * web login defaults to.
 *
 * Shapes from Binaryify/NeteaseCloudMusicApi (module/captcha_sent.js, module/login_cellphone.js).
 */
import { err, ok } from '../../result';
import type { SmsLogin } from '../platform-login';
import { neteaseCookieLogin } from './netease-cookie-login';
import { LoginAnswerSchema, loginCall, refusal } from './netease-login-call';

const COUNTRY_CODE = '86';

export const neteaseSmsLogin: SmsLogin = {
  async send(phone) {
    const sent = await loginCall(
      '/weapi/sms/captcha/sent',
      { ctcode: COUNTRY_CODE, cellphone: phone },
      LoginAnswerSchema,
    );
    if (!sent.ok) return sent;
    return sent.value.answer.code === 200
      ? ok(undefined)
      : err(refusal('to send the code', sent.value.answer));
  },

  async verify(phone, code) {
    const answered = await loginCall(
      '/weapi/login/cellphone',
      { phone, countrycode: COUNTRY_CODE, captcha: code, rememberLogin: 'true' },
      LoginAnswerSchema,
    );
    if (!answered.ok) return answered;
    const { answer, cookie } = answered.value;
    if (answer.code !== 200) return err(refusal('the code', answer));
    return neteaseCookieLogin.check(cookie);
  },
};
