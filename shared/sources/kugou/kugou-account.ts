/**
 * Who a Kugou Music login is: `/v3/get_my_info` on the user centre, the app's own profile request. Its
 * body carries the token RSA-encrypted for Kugou (`p`: the JSON `{token, clienttime}`, zero-padded to
 * the key's length, raised to the public exponent without padding, as upper-case hex). A token Kugou
 * no longer accepts (error 20018) means "not logged in", which is an answer, not a failure.
 *
 * Request, public key and encryption from MakcRe/KuGouMusicApi (module/user_detail.js: `visit_time`,
 * `usertype`, `p`, `userid`, `plat=1`, router `usercenter.kugou.com`; util/crypto.js
 * `cryptoRSAEncrypt`, `publicRasKey`); the expired answer from its issue #175.
 */
import { constants, publicEncrypt } from 'node:crypto';
import { ok, type Result } from '../../result';
import { GATEWAY_ORIGIN, type KugouClient } from './kugou-client';
import type { KugouLogin } from './kugou-login';
import { MyInfoDataSchema } from './kugou-schemas';

const KUGOU_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDIAG7QOELSYoIJvTFJhMpe1s/gbjDJX51HBNnEl5HXqTW6lQ7LC8jr9fWZTwusknp+sVGzwd40MwP6U5yDE27M/X1+UR4tvOGOqp94TJtQ1EPnWGWXngpeIW5GxoQGao1rmYWAu6oi1z9XkChrsUdC6DJE5E221wf/4WLFxwAtRQIDAQAB
-----END PUBLIC KEY-----`;
const KEY_BYTES = 128;

export interface KugouAccount {
  nickname: string;
  avatarUrl: string;
}

/** `payload` as JSON, encrypted for Kugou the way its app does (raw RSA over the zero-padded text). */
export function encryptForKugou(payload: Record<string, unknown>): string {
  const padded = Buffer.alloc(KEY_BYTES);
  Buffer.from(JSON.stringify(payload)).copy(padded);
  return publicEncrypt({ key: KUGOU_PUBLIC_KEY, padding: constants.RSA_NO_PADDING }, padded)
    .toString('hex')
    .toUpperCase();
}

/** The login's account, or undefined when Kugou no longer accepts its token. */
export async function readAccount(
  client: KugouClient,
  login: KugouLogin,
): Promise<Result<KugouAccount | undefined>> {
  const clienttime = Math.floor(Date.now() / 1000);
  const answer = await client.probe(
    {
      origin: GATEWAY_ORIGIN,
      path: '/v3/get_my_info',
      router: 'usercenter.kugou.com',
      query: { plat: 1 },
      body: {
        visit_time: clienttime,
        usertype: 1,
        p: encryptForKugou({ token: login.token, clienttime }),
        userid: Number(login.userid),
      },
    },
    MyInfoDataSchema,
    login,
  );
  if (!answer.ok) return answer;
  return ok(answer.value && { nickname: answer.value.nickname, avatarUrl: answer.value.pic });
}

/** The refusal for a personal page asked for without any stored login. */
export const needsLogin = (what: string) => `${what} needs a Kugou Music login; log in first`;
