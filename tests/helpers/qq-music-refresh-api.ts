/**
 * A stand-in (msw) for QQ Music's login renewal, musicu's `music.login.LoginServer`/`Login`. Each
 * request is recorded (its `comm`, `req_0` and Cookie header). A login the test has `renew`ed (its
 * refresh key, asked with its music key and refresh token) is answered with the renewal fixture; any
 * other is one QQ Music no longer accepts (code 1000). Other musicu calls are left to the file's other
 * stand-ins (the QR login's, qq-music-login-api.ts). `down()` makes it answer HTTP 502.
 *
 * Shapes from L-1124/QQMusicApi; see tests/fixtures/qq-music/README.md.
 */
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { MUSICU_URL } from '../../shared/sources/qq-music/musicu-client';
import { useMswServer } from './msw-server';
import { qqFixture } from './qq-music-api';

export interface QqRefreshRequest {
  comm: Record<string, unknown>;
  req_0: { module: string; method: string; param: Record<string, unknown> };
  cookie: string | null;
}

interface StoredLogin {
  musicKey: string;
  refreshToken: string;
}

const EXPIRED = { code: 0, req_0: { code: 1000, data: {} } };

export function useQqMusicRefreshApi() {
  const requests: QqRefreshRequest[] = [];
  const logins = new Map<string, StoredLogin>();
  let unreachable = false;
  afterEach(() => {
    requests.length = 0;
    logins.clear();
    unreachable = false;
  });

  useMswServer(
    http.post(MUSICU_URL, async ({ request }) => {
      // A clone: a call left to the other stand-ins must keep its body for them.
      const body = (await request.clone().json()) as Omit<QqRefreshRequest, 'cookie'>;
      const { module, method, param } = body.req_0;
      if (module !== 'music.login.LoginServer' || method !== 'Login') return undefined;
      if (unreachable) return new HttpResponse('bad gateway', { status: 502 });
      requests.push({ ...body, cookie: request.headers.get('cookie') });
      const login = logins.get(String(param.refresh_key));
      if (!login || login.musicKey !== param.musickey || login.refreshToken !== param.refresh_token)
        return HttpResponse.json(EXPIRED);
      return HttpResponse.json(qqFixture('login-refresh') as object);
    }),
  );

  return {
    requests,
    /** QQ Music renews the login holding `refreshKey` (with its music key and refresh token). */
    renew(refreshKey: string, login: StoredLogin) {
      logins.set(refreshKey, login);
    },
    down() {
      unreachable = true;
    },
  };
}
