/**
 * A stand-in (msw) for QQ Music's login renewal, musicu's `music.login.LoginServer`/`Login`, asked as
 * the phone app (the shape qq-music-api.ts checks; it answers the phone's session request too). Each
 * request is recorded (its `comm` and `req_0`). A login the test has `renew`ed (its
 * refresh key, asked with its music key and refresh token) is answered with the renewal fixture; any
 * other is one QQ Music no longer accepts (code 1000). Other musicu calls are left to the file's other
 * stand-ins (the QR login's, qq-music-login-api.ts). `down()` makes it answer HTTP 502.
 *
 * Shapes from L-1124/QQMusicApi; see tests/fixtures/qq-music/README.md.
 */
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { MUSICU_URL } from '../../shared/sources/qq-music/qq-mobile-client';
import { useMswServer } from './msw-server';
import {
  type MusicuRequest,
  mobileRequest,
  qimeiHandler,
  qqFixture,
  sessionAnswer,
  untrusted,
} from './qq-music-api';

export type QqRefreshRequest = MusicuRequest;

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
    qimeiHandler,
    http.post(MUSICU_URL, async ({ request }) => {
      // A clone: a call left to the other stand-ins must keep its body for them.
      const body = (await request.clone().json()) as { req_0?: { module?: string; method?: string } };
      const asked = mobileRequest(body, request.headers);
      if (asked && sessionAnswer(asked)) return sessionAnswer(asked);
      if (body.req_0?.module !== 'music.login.LoginServer' || body.req_0.method !== 'Login') return undefined;
      if (unreachable) return new HttpResponse('bad gateway', { status: 502 });
      if (!asked) return untrusted();
      const { param } = asked.req_0;
      requests.push(asked);
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
