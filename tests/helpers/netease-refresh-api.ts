/**
 * A stand-in (msw) for NetEase Cloud Music's login refresh, `/eapi/login/token/refresh`: the desktop
 * client's form with the device cookies and the login (netease-protocol.ts reads and checks it). A
 * login the test has `renew`ed is answered code 200 with the next `MUSIC_U` and `__csrf` in
 * Set-Cookie; one it `refuse`s gets code 400 (as QR logins do); any other is a login NetEase does not
 * know (code 301). `down()` makes it answer HTTP 503.
 *
 * Shapes from NeteaseCloudMusicApiEnhanced/api-enhanced; see tests/fixtures/netease/README.md.
 */
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { jsonSettingCookies } from './login-response';
import { useMswServer } from './msw-server';
import { deviceHandlers, neteaseFixture } from './netease-api';
import { type ReadRequest, readNeteaseRequest } from './netease-protocol';

export type NeteaseRefreshRequest = ReadRequest;

export function useNeteaseRefreshApi() {
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
    ...deviceHandlers([]),
    http.post('https://interfacepc.music.163.com/eapi/login/token/refresh', async ({ request }) => {
      if (unreachable) return new HttpResponse('busy', { status: 503 });
      const asked = await readNeteaseRequest(request);
      if (asked instanceof Response) return asked;
      requests.push(asked);
      const musicU = asked.musicU ?? '';
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
