/**
 * How the shared Kugou Music login is made (platform-login.ts): a QR code scanned in the Kugou app, or
 * a pasted cookie holding `token` and `userid`. The QR attempt picks a device id and keeps it in its
 * state, so the stored credential carries the device the token was issued to (kugou-login.ts).
 *
 * QR requests from MakcRe/KuGouMusicApi (module/login_qr_key.js: `login-user.kugou.com/v2/qrcode` with
 * `appid` 1001, `type` 1, `plat` 4, `qrcode_txt`, `srcappid`, web-signed; module/login_qr_create.js:
 * the h5 page URL the code encodes; module/login_qr_check.js: `/v2/get_userinfo_qrcode` with
 * `qrcode`, status 0 expired, 1 waiting, 2 scanned, 4 confirmed with `token` and `userid`) and the
 * nickname/avatar MoeKoeMusic/MoeKoeMusic shows from the same answer (src/views/Login.vue).
 */
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { err, ok, type Result } from '../../result';
import { type QrFlow, QrLoginMachine } from '../login/qr-login-machine';
import type { CookieLogin, LoginProfile, PlatformLogin } from '../platform-login';
import { readAccount } from './kugou-account';
import { KugouClient, LOGIN_ORIGIN } from './kugou-client';
import { type KugouDevice, kugouCookie, newDevice, parseKugouCookie, storedKugouLogin } from './kugou-login';
import { QrKeyDataSchema, QrStatusDataSchema } from './kugou-schemas';
import { APP_ID, SRC_APP_ID } from './kugou-signing';

/** The app the QR key is made for (the login host's own id for app logins). */
const QR_APP_ID = 1001;
const QR_PAGE = 'https://h5.kugou.com/apps/loginQRCode/html/index.html';

export function kugouLogin(db: Db): Required<Pick<PlatformLogin, 'qr' | 'cookie'>> {
  const client = new KugouClient(storedKugouLogin(db));
  return { qr: new KugouQrLogin(client), cookie: new KugouCookieLogin(client) };
}

/** An answer to a poll, with the device the attempt logs in with. */
type Polled = z.output<typeof QrStatusDataSchema> & { device: KugouDevice };

/** Kugou's QR login: the shared machine with Kugou's requests, made with the client it asks through. */
export class KugouQrLogin extends QrLoginMachine<Polled> {
  constructor(client: KugouClient) {
    super(kugouQrFlow(client));
  }
}

function kugouQrFlow(client: KugouClient): QrFlow<Polled> {
  return {
    async start() {
      const device = newDevice();
      const answer = await client.call(
        {
          origin: LOGIN_ORIGIN,
          path: '/v2/qrcode',
          signing: 'web',
          query: {
            appid: QR_APP_ID,
            type: 1,
            plat: 4,
            qrcode_txt: `${QR_PAGE}?appid=${APP_ID}&`,
            srcappid: SRC_APP_ID,
          },
        },
        QrKeyDataSchema,
        device,
      );
      if (!answer.ok) return answer;
      const key = answer.value.qrcode;
      return ok({ qrUrl: `${QR_PAGE}?qrcode=${key}`, state: { key, mid: device.mid, dfid: device.dfid } });
    },
    needs: ['key', 'mid', 'dfid'],
    incomplete: 'this Kugou Music QR login is incomplete; start again',
    async ask({ key = '', mid = '', dfid = '' }) {
      const device: KugouDevice = { mid, dfid };
      const answer = await client.call(
        {
          origin: LOGIN_ORIGIN,
          path: '/v2/get_userinfo_qrcode',
          signing: 'web',
          query: { plat: 4, appid: APP_ID, srcappid: SRC_APP_ID, qrcode: key },
        },
        QrStatusDataSchema,
        device,
      );
      return answer.ok ? ok({ ...answer.value, device }) : answer;
    },
    codeOf: (answer) => answer.status,
    pending: { 0: 'expired', 1: 'waiting', 2: 'scanned' },
    confirmed: 4,
    refused: ({ status }) => `Kugou Music answered the QR login with an unknown state (${status})`,
    async confirm({ token, userid, nickname, pic, device }) {
      const login = parseKugouCookie(kugouCookie({ token, userid, ...device }));
      if (!login) return err('Kugou Music confirmed the QR login but sent no token');
      return ok({ credential: kugouCookie(login), profile: profileOf(nickname, pic) });
    },
  };
}

export class KugouCookieLogin implements CookieLogin {
  constructor(private readonly client: KugouClient) {}

  async check(cookie: string): Promise<Result<{ credential: string; profile: LoginProfile }>> {
    const login = parseKugouCookie(cookie);
    if (!login) return err('a Kugou Music login cookie needs its token and userid');
    const account = await readAccount(this.client, login);
    if (!account.ok) return account;
    if (!account.value) return err('Kugou Music did not accept this login (expired or signed out)');
    return ok({
      credential: kugouCookie(login),
      profile: profileOf(account.value.nickname, account.value.avatarUrl),
    });
  }
}

const profileOf = (nickname: string, avatarUrl: string): LoginProfile => ({
  ...(nickname && { nickname }),
  ...(avatarUrl && { avatarUrl }),
});
