/**
 * A stand-in (msw) for NetEase Cloud Music's login endpoints and its account check: the QR key and
 * poll (the desktop form, type 3), the SMS code and cellphone login (the web form), and
 * `/weapi/w/nuser/account/get`, which answers for the account whose `MUSIC_U` the request's cookie
 * carries. Requests must have the real form and the device cookies (netease-protocol.ts); the test
 * file pins weapi's secret so each web request's payload can be read (the phone, the code).
 * A test moves an attempt along with `scan`, `confirm` and `expire`, as the phone app would. Register
 * it before `useNeteaseApi`, whose catch-all would otherwise take these paths.
 *
 * Shapes from NeteaseCloudMusicApiEnhanced/api-enhanced; see tests/fixtures/netease/README.md.
 */
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { jsonSettingCookies } from './login-response';
import { useMswServer } from './msw-server';
import { deviceHandlers, neteaseFixture } from './netease-api';
import { type ReadRequest, readNeteaseRequest } from './netease-protocol';

export interface NeteaseProfile {
  userId: number;
  nickname: string;
  avatarUrl: string;
}

export type NeteaseLoginRequest = ReadRequest & { payload: Record<string, unknown> };

type QrState = 'qr-check-expired' | 'qr-check-waiting' | 'qr-check-scanned' | 'qr-check-confirmed';

const ACCOUNT = neteaseFixture('account') as { account: object; profile: NeteaseProfile };
/** The account the fixtures name. */
export const LISTENER: NeteaseProfile = {
  userId: ACCOUNT.profile.userId,
  nickname: ACCOUNT.profile.nickname,
  avatarUrl: ACCOUNT.profile.avatarUrl,
};

/** The Set-Cookie lines of a NetEase login (MUSIC_U is the login; the rest come along). */
const loginCookies = (musicU: string) => [
  `MUSIC_U=${musicU}; Max-Age=1296000; Expires=Tue, 01 Jan 2036 00:00:00 GMT; Path=/; HTTPOnly`,
  `__csrf=csrf${musicU.length}fixture; Max-Age=1296010; Path=/`,
  'NMTID=00Ofixture-nmtid; Max-Age=315360000; Path=/',
];

export function useNeteaseLoginApi(weapiSecret: string) {
  const requests: NeteaseLoginRequest[] = [];
  /** QR attempts by key: their state and, once confirmed, whose login they hand out. */
  const attempts = new Map<string, { state: QrState; musicU?: string }>();
  /** The accounts NetEase knows, by their MUSIC_U. */
  const accounts = new Map<string, NeteaseProfile>();
  /** The codes texted, by phone, and the MUSIC_U a right code logs in as. */
  const texted = new Map<string, { code: string; musicU: string }>();
  let issued = 0;
  afterEach(() => {
    requests.length = 0;
  });

  /** `path` on the host its form is sent to (`/weapi/` the web player's, `/eapi/` the desktop's). */
  const route = (path: string, answer: (asked: NeteaseLoginRequest) => Response) =>
    http.post(
      `https://${path.startsWith('/eapi/') ? 'interfacepc.music' : 'music'}.163.com${path}`,
      async ({ request }) => {
        const asked = await readNeteaseRequest(request, weapiSecret);
        if (asked instanceof Response) return asked;
        const read = { ...asked, payload: asked.payload ?? {} };
        requests.push(read);
        return answer(read);
      },
    );

  useMswServer(
    ...deviceHandlers([], weapiSecret),
    route('/eapi/login/qrcode/unikey', ({ payload }) => {
      if (payload.type !== 3) return HttpResponse.json({ code: 400, message: 'type' });
      const unikey = `fixture-unikey-${++issued}`;
      attempts.set(unikey, { state: 'qr-check-waiting' });
      return HttpResponse.json({ ...neteaseFixture('qr-unikey'), unikey });
    }),
    route('/eapi/login/qrcode/client/login', ({ payload }) => {
      const attempt = attempts.get(String(payload.key));
      if (payload.type !== 3 || !attempt) return HttpResponse.json(neteaseFixture('qr-check-expired'));
      const body = neteaseFixture(attempt.state);
      return attempt.state === 'qr-check-confirmed' && attempt.musicU
        ? jsonSettingCookies(body, loginCookies(attempt.musicU))
        : HttpResponse.json(body);
    }),
    route('/weapi/sms/captcha/sent', ({ payload }) => {
      if (
        payload.ctcode !== '86' ||
        payload.secrete !== 'music_middleuser_pclogin' ||
        !texted.has(String(payload.cellphone))
      )
        return HttpResponse.json({ code: 400, message: '手机号格式错误' });
      return HttpResponse.json(neteaseFixture('sms-sent'));
    }),
    route('/weapi/w/login/cellphone', ({ payload }) => {
      const sent = texted.get(String(payload.phone));
      if (payload.type !== '1' || payload.remember !== 'true' || payload.https !== 'true')
        return HttpResponse.json({ code: 400, message: 'bad request' });
      if (payload.countrycode !== '86' || !sent || payload.captcha !== sent.code)
        return HttpResponse.json(neteaseFixture('cellphone-wrong-code'));
      return jsonSettingCookies(neteaseFixture('cellphone-login'), loginCookies(sent.musicU));
    }),
    route('/weapi/w/nuser/account/get', ({ musicU }) => {
      const profile = accounts.get(musicU ?? '');
      // A cookie NetEase no longer knows is answered with both halves null (module/login_status.js).
      if (!profile) return HttpResponse.json({ code: 200, account: null, profile: null });
      return HttpResponse.json({
        ...ACCOUNT,
        account: { ...ACCOUNT.account, id: profile.userId },
        profile: { ...ACCOUNT.profile, ...profile },
      });
    }),
  );

  const attempt = (unikey: string) => {
    const found = attempts.get(unikey);
    if (!found) throw new Error(`no QR attempt ${unikey}`);
    return found;
  };
  return {
    requests,
    /** The key of the latest QR code handed out. */
    lastUnikey: () => `fixture-unikey-${issued}`,
    /** An account NetEase knows under this MUSIC_U. */
    addAccount(musicU: string, profile: NeteaseProfile = LISTENER) {
      accounts.set(musicU, profile);
    },
    /** NetEase forgets the login (expired, or logged out elsewhere). */
    forget(musicU: string) {
      accounts.delete(musicU);
    },
    scan(unikey: string) {
      attempt(unikey).state = 'qr-check-scanned';
    },
    confirm(unikey: string, musicU: string) {
      Object.assign(attempt(unikey), { state: 'qr-check-confirmed', musicU });
    },
    expire(unikey: string) {
      attempt(unikey).state = 'qr-check-expired';
    },
    /** The phone this code will be texted to, and the account a right code logs in as. */
    phone(phone: string, code: string, musicU: string) {
      texted.set(phone, { code, musicU });
    },
  };
}
