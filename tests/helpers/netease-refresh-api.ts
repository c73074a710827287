/**
 * A stand-in (msw) for NetEase Cloud Music's login refresh, `/weapi/login/token/refresh`: a real weapi
 * form asked with the login cookie (the test file pins weapi's secret so the payload can be read). A
 * login the test has `renew`ed is answered code 200 with the next `MUSIC_U` and `__csrf` in
 * Set-Cookie; one it `refuse`s gets code 400 (as QR logins do); any other is a login NetEase does not
 * know (code 301). `down()` makes it answer HTTP 503.
 *
 * Shapes from Binaryify/NeteaseCloudMusicApi; see tests/fixtures/netease/README.md.
 */
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { cookieValues } from '../../shared/sources/http/cookies';
import { NETEASE_ORIGIN } from '../../shared/sources/netease/netease-client';
import { jsonSettingCookies } from './login-response';
import { useMswServer } from './msw-server';
import { neteaseFixture } from './netease-api';
import { isWeapiForm, readWeapiPayload } from './weapi-form';

export interface NeteaseRefreshRequest {
  cookie: string;
  payload: Record<string, unknown>;
}

export function useNeteaseRefreshApi(weapiSecret: string) {
  const requests: NeteaseRefreshRequest[] = [];
  /** The MUSIC_U each known login is renewed to. */
  const renewals = new Map<string, string>();
  const refused = new Set<string>();
  let unreachable = false;
  afterEach(() => {
    requests.length = 0;
    unreachable = false;
  });

  useMswServer(
    http.post(`${NETEASE_ORIGIN}/weapi/login/token/refresh`, async ({ request }) => {
      if (unreachable) return new HttpResponse('busy', { status: 503 });
      const form = new URLSearchParams(await request.text());
      if (request.headers.get('content-type') !== 'application/x-www-form-urlencoded' || !isWeapiForm(form))
        return HttpResponse.json({ code: 400, message: 'not a weapi request' }, { status: 400 });
      const cookie = request.headers.get('cookie') ?? '';
      requests.push({ cookie, payload: readWeapiPayload(form, weapiSecret) });
      const musicU = cookieValues(cookie).get('MUSIC_U') ?? '';
      if (refused.has(musicU)) return HttpResponse.json(neteaseFixture('token-refresh-refused'));
      const next = renewals.get(musicU);
      if (!next) return HttpResponse.json(neteaseFixture('token-refresh-logged-out'));
      return jsonSettingCookies(neteaseFixture('token-refresh'), [
        `MUSIC_U=${next}; Max-Age=1296000; Expires=Tue, 01 Jan 2036 00:00:00 GMT; Path=/; HTTPOnly`,
        `__csrf=csrf-${next}; Max-Age=1296010; Path=/`,
      ]);
    }),
  );

  return {
    requests,
    /** NetEase renews the login `musicU` to `next`. */
    renew(musicU: string, next: string) {
      renewals.set(musicU, next);
    },
    /** NetEase knows the login but will not renew it (code 400). */
    refuse(musicU: string) {
      refused.add(musicU);
    },
    /** NetEase answers HTTP 503 until the test ends. */
    down() {
      unreachable = true;
    },
  };
}
