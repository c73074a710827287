/**
 * NetEase Cloud Music's SMS login, as the web player makes it: `/weapi/sms/captcha/sent` texts a code to
 * the phone (`ctcode`, `cellphone`, the PC login's `secrete`), and `/weapi/w/login/cellphone` with that
 * code as `captcha` logs in, the login cookie in Set-Cookie. Phone numbers are taken as mainland China
 * numbers (country code 86), as NetEase's own web login defaults to. NetEase now refuses most of these
 * logins with code 8821 ("需要行为验证码验证": it wants a behaviour captcha, which a server cannot pass);
 * that refusal says so plainly and points to the QR code.
 *
 * Shapes from NeteaseCloudMusicApiEnhanced/api-enhanced (module/captcha_sent.js, module/login_cellphone.js:
 * weapi, `type` 1, `https`, `remember`, `secureCaptcha`; its PR #70: the web form is the one that works;
 * its issues #4 and #8: code 8821 and "use the QR login or a cookie").
 */
import { err, ok } from '../../result';
import type { SmsLogin } from '../platform-login';
import { refusal } from './netease-client';
import { neteaseCookieLogin } from './netease-cookie-login';
import { LoginAnswerSchema, loginCall } from './netease-login-call';
import { SERVICE } from './netease-transport';

const COUNTRY_CODE = '86';
/** NetEase wants a behaviour captcha before it lets this login through. */
const NEEDS_CAPTCHA = 8821;
const SMS_REFUSED = `${SERVICE} refuses SMS login for now: it wants a behaviour captcha (code 8821) that this server cannot show; log in with the QR code instead`;

const smsRefusal = (what: string, answer: { code: number; message?: string | null; msg?: string | null }) =>
  answer.code === NEEDS_CAPTCHA ? SMS_REFUSED : refusal(what, answer);

export const neteaseSmsLogin: SmsLogin = {
  refusedOutright: SMS_REFUSED,

  async send(phone) {
    const sent = await loginCall(
      '/weapi/sms/captcha/sent',
      { ctcode: COUNTRY_CODE, secrete: 'music_middleuser_pclogin', cellphone: phone },
      LoginAnswerSchema,
    );
    if (!sent.ok) return sent;
    return sent.value.answer.code === 200
      ? ok(undefined)
      : err(smsRefusal('to send the code', sent.value.answer));
  },

  async verify(phone, code) {
    const answered = await loginCall(
      '/weapi/w/login/cellphone',
      {
        type: '1',
        https: 'true',
        phone,
        countrycode: COUNTRY_CODE,
        captcha: code,
        remember: 'true',
        secureCaptcha: '',
      },
      LoginAnswerSchema,
    );
    if (!answered.ok) return answered;
    const { answer, cookie } = answered.value;
    if (answer.code !== 200) return err(smsRefusal('the code', answer));
    return neteaseCookieLogin.check(cookie);
  },
};
