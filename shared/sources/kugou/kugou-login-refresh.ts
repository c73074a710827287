/**
 * Renewing a stored Kugou Music login the way the app does: `/v5/login_by_token`, asked of the login
 * service directly (`login.user.kugou.com`, no longer through the gateway), trades the token for a new one. Its JSON body
 * carries the old token AES-encrypted under the app's fixed key (`p3`: `{clienttime, token}`), and a
 * one-time session key of our own, RSA-encrypted for Kugou (`pk`: `{clienttime_ms, key}`), under which
 * Kugou may answer the new token (`data.secu_params`: its JSON fields, or the bare token); otherwise the
 * new token is `data.token`. A token Kugou no longer accepts (error 20010/20017/20018) means the login
 * has expired. The device the token belongs to stays with it. The token is a secret: never logged.
 *
 * Request and answer from MakcRe/KuGouMusicApi (module/login_token.js: the body fields, the `p3` key and
 * IV, `t3`, `secu_params`; util/crypto.js `cryptoAesEncrypt`/`cryptoAesDecrypt`: AES-256-CBC, the
 * session key being the first 32 hex digits of a random text's md5 and the IV its last 16 of those;
 * `cryptoRSAEncrypt`: the key kugou-account.ts encrypts with, as lower-case hex; the host since its
 * commit e832d05, which dropped the gateway's `x-router`), and public clients of that path (answered
 * 20017 for a dead token). The reference asks the host over plain http; this asks it over https, so
 * the token never crosses the network in clear.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import type { RefreshOutcome } from '../platform-login';
import { encryptForKugou } from './kugou-account';
import { KugouClient, LOGIN_SERVICE_ORIGIN } from './kugou-client';
import { kugouCookie, parseKugouCookie } from './kugou-login';
import { md5 } from './kugou-signing';

/** The app's fixed key for `p3`, from its own code. */
const P3_KEY = '90b8382a1bb4ccdcf063102053fd75b8';
const P3_IV = 'f063102053fd75b8';
/** Nine zero device fingerprints, as the app sends when it has none. */
const NO_FINGERPRINTS = 'MCwwLDAsMCwwLDAsMCwwLDA=';

const TokenFieldsSchema = z.object({
  token: z.string().min(1).optional(),
  userid: z.union([z.number(), z.string()]).optional(),
});
const RenewedSchema = TokenFieldsSchema.extend({ secu_params: z.string().min(1).optional() });

/** AES-256-CBC of `plain` as hex, the way every Kugou body field here is encrypted. */
const aesHex = (plain: string, key: string, iv: string): string => {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('hex');
};

/** The AES key and IV a session text stands for (what `pk` hands Kugou). */
export function sessionCipher(text: string): { key: string; iv: string } {
  const key = md5(text);
  return { key, iv: key.slice(16) };
}

/**
 * What `secu_params` holds, decrypted with the session key: the new token's fields, or the bare token;
 * undefined when it does not decrypt (then it was not encrypted for this session).
 */
function openSecuParams(hex: string, session: string): unknown {
  const { key, iv } = sessionCipher(session);
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, iv);
    const plain = Buffer.concat([decipher.update(hex, 'hex'), decipher.final()]).toString('utf8');
    return plain.trimStart().startsWith('{') ? JSON.parse(plain) : { token: plain.trim() };
  } catch {
    return undefined;
  }
}

/** A new one-time session text, as the app makes one: 16 lower-case letters and digits. */
const newSession = (): string => randomBytes(8).toString('hex');

/** Every call names its login explicitly, so the client needs no stored one. */
const client = new KugouClient(async () => undefined);

export async function refreshKugouLogin(
  credential: string,
  session: () => string = newSession,
): Promise<Result<RefreshOutcome>> {
  const login = parseKugouCookie(credential);
  if (!login) return ok('expired');
  const now = Date.now();
  const text = session();
  const { key, iv } = sessionCipher(text);
  const answer = await client.probe(
    {
      origin: LOGIN_SERVICE_ORIGIN,
      path: '/v5/login_by_token',
      body: {
        dfid: login.dfid,
        p3: aesHex(JSON.stringify({ clienttime: Math.floor(now / 1000), token: login.token }), P3_KEY, P3_IV),
        plat: 1,
        t1: 0,
        t2: 0,
        t3: NO_FINGERPRINTS,
        pk: encryptForKugou({ clienttime_ms: now, key: text }).toLowerCase(),
        params: aesHex('{}', key, iv),
        userid: login.userid,
        clienttime_ms: now,
      },
    },
    RenewedSchema,
    login,
  );
  if (!answer.ok) return answer;
  if (!answer.value) return ok('expired');
  const { secu_params, ...outer } = answer.value;
  const inner = TokenFieldsSchema.safeParse(secu_params ? openSecuParams(secu_params, text) : {});
  if (!inner.success) return err('Kugou Music answered the login renewal in an unexpected shape');
  const token = inner.data.token ?? outer.token;
  const userid = inner.data.userid ?? outer.userid;
  if (!token) return err('Kugou Music renewed the login but sent no token');
  if (userid !== undefined && String(userid) !== login.userid)
    return err('Kugou Music renewed the login for another account');
  return ok({ credential: kugouCookie({ ...login, token }) });
}
