/**
 * A stand-in (msw) for Bilibili's QR login (`passport-login/web/qrcode/generate` and `poll`, which
 * insists on the key it handed out) and for the account check the login ends with (`nav`, which
 * answers logged in only for a `SESSDATA` it set or was told about, and `finger/spi` for the guest
 * browser id `nav` is asked with). A test moves the attempt along with `scan`, `confirm`, `expire`.
 *
 * Shapes from SocialSisterYi/bilibili-API-collect; see tests/fixtures/bilibili/README.md.
 */
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { BILIBILI_API } from '../../shared/sources/bilibili/bilibili-client';
import { cookieValues } from '../../shared/sources/http/cookies';
import { bilibiliFixture } from './bilibili-api';
import { jsonSettingCookies } from './login-response';
import { useMswServer } from './msw-server';

type PollState = 'waiting' | 'scanned' | 'expired' | 'confirmed';
const PASSPORT = 'https://passport.bilibili.com/x/passport-login/web/qrcode';
const GENERATED = bilibiliFixture('qr-generate') as { data: { qrcode_key: string } };
export const BILIBILI_QR_KEY = GENERATED.data.qrcode_key;

const loginCookies = (sessdata: string) => [
  `SESSDATA=${sessdata}; Path=/; Domain=bilibili.com; Expires=Mon, 06 May 2036 00:00:00 GMT; HttpOnly; Secure`,
  'bili_jct=fixturejct; Path=/; Domain=bilibili.com; Expires=Mon, 06 May 2036 00:00:00 GMT',
  'DedeUserID=40000001; Path=/; Domain=bilibili.com; Expires=Mon, 06 May 2036 00:00:00 GMT',
  'DedeUserID__ckMd5=fixtureckmd5; Path=/; Domain=bilibili.com; Expires=Mon, 06 May 2036 00:00:00 GMT',
  'sid=fixturesid; Path=/; Domain=bilibili.com; Expires=Mon, 06 May 2036 00:00:00 GMT',
];

export function useBilibiliLoginApi() {
  let state: PollState = 'waiting';
  let sessdata = '';
  /** The SESSDATA values Bilibili takes as logged in. */
  const sessions = new Set<string>();
  const asked: { path: string; cookie: string | null }[] = [];
  afterEach(() => {
    asked.length = 0;
  });
  const log = (request: Request) => {
    asked.push({ path: new URL(request.url).pathname, cookie: request.headers.get('cookie') });
  };

  useMswServer(
    http.get(`${PASSPORT}/generate`, ({ request }) => {
      log(request);
      state = 'waiting';
      return HttpResponse.json(GENERATED);
    }),
    http.get(`${PASSPORT}/poll`, ({ request }) => {
      log(request);
      if (new URL(request.url).searchParams.get('qrcode_key') !== BILIBILI_QR_KEY)
        return HttpResponse.json(bilibiliFixture('qr-poll-expired'));
      const body = bilibiliFixture(`qr-poll-${state}`);
      return state === 'confirmed'
        ? jsonSettingCookies(body, loginCookies(sessdata))
        : HttpResponse.json(body);
    }),
    http.get(`${BILIBILI_API}/x/web-interface/nav`, ({ request }) => {
      log(request);
      const session = cookieValues(request.headers.get('cookie') ?? '').get('SESSDATA') ?? '';
      return HttpResponse.json(bilibiliFixture(sessions.has(session) ? 'nav-login' : 'nav'));
    }),
    http.get(`${BILIBILI_API}/x/frontend/finger/spi`, ({ request }) => {
      log(request);
      return HttpResponse.json(bilibiliFixture('spi'));
    }),
  );

  return {
    asked,
    scan: () => {
      state = 'scanned';
    },
    /** The phone confirms; the login set is `SESSDATA=<value>`, which Bilibili then accepts. */
    confirm: (value: string) => {
      state = 'confirmed';
      sessdata = value;
      sessions.add(value);
    },
    expire: () => {
      state = 'expired';
    },
    /** A SESSDATA Bilibili accepts (or, with `false`, no longer accepts). */
    acceptSession(value: string, accepted = true) {
      if (accepted) sessions.add(value);
      else sessions.delete(value);
    },
  };
}
