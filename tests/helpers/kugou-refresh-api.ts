/**
 * A stand-in (msw) for Kugou Music's token renewal, `/v5/login_by_token` on the login service
 * (`login.user.kugou.com`, asked directly). The request must have the app's shape: its `kg-*` marks and
 * device headers, the app and device parameters with
 * the login's `token` and `userid`, an Android `signature` over them and the JSON body, and a body whose
 * `p3` decrypts (with the app's fixed key) to `{clienttime, token}`; else it is refused like a bad
 * signature. A token the test has `renew`ed is answered with the next one, as `data.token` or, given the
 * session text the request's `pk` carries (the test fixes it), inside `data.secu_params`; any other
 * token is one Kugou no longer accepts (error 20017). `down()` makes it answer HTTP 502.
 *
 * Shapes from MakcRe/KuGouMusicApi; see tests/fixtures/kugou/README.md.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { LOGIN_SERVICE_ORIGIN } from '../../shared/sources/kugou/kugou-client';
import { sessionCipher } from '../../shared/sources/kugou/kugou-login-refresh';
import { androidSignature } from '../../shared/sources/kugou/kugou-signing';
import { hasAppHeaders, kugouFixture, refusedWith } from './kugou-api';
import { useMswServer } from './msw-server';

/** The app's fixed `p3` key and IV, from module/login_token.js. */
const P3_KEY = '90b8382a1bb4ccdcf063102053fd75b8';
const P3_IV = 'f063102053fd75b8';
const BAD_SIGNATURE = { status: 0, error_code: 20001, data: null };
const APP_PARAMS = ['appid', 'clientver', 'clienttime', 'mid', 'dfid', 'uuid', 'token', 'userid'];

export interface KugouRefreshRequest {
  router: string | null;
  query: Record<string, string>;
  body: Record<string, unknown>;
  /** `p3` decrypted: what the app says the old token is. */
  p3: { clienttime: number; token: string };
}

interface Renewal {
  next: string;
  /** Answer the token inside `secu_params`, encrypted for this session text. */
  session?: string;
}

const decryptP3 = (hex: string) => {
  const decipher = createDecipheriv('aes-256-cbc', P3_KEY, P3_IV);
  return JSON.parse(Buffer.concat([decipher.update(hex, 'hex'), decipher.final()]).toString('utf8'));
};

const encryptForSession = (plain: string, session: string) => {
  const { key, iv } = sessionCipher(session);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('hex');
};

export function useKugouRefreshApi() {
  const requests: KugouRefreshRequest[] = [];
  const renewals = new Map<string, Renewal>();
  let unreachable = false;
  afterEach(() => {
    requests.length = 0;
    unreachable = false;
  });

  useMswServer(
    http.post(`${LOGIN_SERVICE_ORIGIN}/v5/login_by_token`, async ({ request }) => {
      if (unreachable) return new HttpResponse('bad gateway', { status: 502 });
      const url = new URL(request.url);
      const bodyText = await request.text();
      const { signature, ...params } = Object.fromEntries(url.searchParams);
      if (
        !signature ||
        !hasAppHeaders(request.headers) ||
        signature !== androidSignature(params, bodyText) ||
        !APP_PARAMS.every((name) => params[name] !== undefined)
      )
        return HttpResponse.json(BAD_SIGNATURE);
      const body = JSON.parse(bodyText) as Record<string, unknown>;
      let p3: KugouRefreshRequest['p3'];
      try {
        p3 = decryptP3(String(body.p3));
      } catch {
        return HttpResponse.json(BAD_SIGNATURE);
      }
      requests.push({ router: request.headers.get('x-router'), query: params, body, p3 });
      const renewal = renewals.get(p3.token);
      if (!renewal || params.token !== p3.token) return HttpResponse.json(refusedWith(20017));
      const answer = kugouFixture('login-by-token') as { data: Record<string, unknown> };
      const token = renewal.session
        ? { secu_params: encryptForSession(JSON.stringify({ token: renewal.next }), renewal.session) }
        : { token: renewal.next };
      return HttpResponse.json({ ...answer, data: { ...answer.data, ...token } });
    }),
  );

  return {
    requests,
    /** Kugou renews `token` to `next` (inside `secu_params` when `session` is given). */
    renew(token: string, next: string, session?: string) {
      renewals.set(token, { next, ...(session && { session }) });
    },
    down() {
      unreachable = true;
    },
  };
}
