/**
 * A stand-in for NetEase Cloud Music's weapi (msw): every request must have the real shape — a form
 * POST to `https://music.163.com/weapi/…` whose body is exactly `params` (base64) and `encSecKey`
 * (256 hex digits) — or it is answered HTTP 400. The payload's key is RSA-encrypted for NetEase, so it
 * can only be read when the test file pins weapi's random secret (`vi.mock` of weapi.ts with a fixed
 * secret, passed here as `weapiSecret`); then each request carries its decrypted `payload`. Answers
 * come from the trimmed fixtures in tests/fixtures/netease; tests swap single answers with `answer(...)`.
 *
 * Shapes from Binaryify/NeteaseCloudMusicApi (util/request.js, util/crypto.js, module/*.js); see
 * tests/fixtures/netease/README.md.
 */
import { HttpResponse, http } from 'msw';
import { NETEASE_ORIGIN } from '../../shared/sources/netease/netease-client';
import { useMswServer } from './msw-server';
import { readFixture, usePlatformStub } from './platform-stub';
import { isWeapiForm, readWeapiPayload } from './weapi-form';

export interface NeteaseRequest {
  path: string;
  cookie: string | null;
  referer: string | null;
  userAgent: string | null;
  /** The decrypted weapi payload, when the test pinned the secret. */
  payload?: Record<string, unknown>;
}

export const neteaseFixture = (name: string) => readFixture<Record<string, unknown>>('netease', name);

/** The fixture answering each path by default; album paths carry the album id. */
const DEFAULT_ANSWERS: [RegExp, string][] = [
  [/^\/weapi\/cloudsearch\/get\/web$/, 'search'],
  [/^\/weapi\/v3\/song\/detail$/, 'song-detail'],
  [/^\/weapi\/v6\/playlist\/detail$/, 'playlist'],
  [/^\/weapi\/v1\/album\/\d+$/, 'album'],
  [/^\/weapi\/v1\/radio\/get$/, 'personal-fm'],
  [/^\/weapi\/song\/enhance\/player\/url\/v1$/, 'song-url'],
  [/^\/weapi\/song\/lyric$/, 'lyric'],
  [/^\/weapi\/personalized\/playlist$/, 'personalized'],
  [/^\/weapi\/v1\/discovery\/recommend\/resource$/, 'recommend-resource'],
  [/^\/weapi\/v3\/discovery\/recommend\/songs$/, 'recommend-songs'],
  [/^\/weapi\/w\/nuser\/account\/get$/, 'account'],
  [/^\/weapi\/user\/playlist$/, 'user-playlist'],
];

export function useNeteaseApi(options: { weapiSecret?: string } = {}) {
  const stub = usePlatformStub<NeteaseRequest>();
  useMswServer(
    http.all(`${NETEASE_ORIGIN}/*`, async ({ request }) => {
      const { pathname } = new URL(request.url);
      const form = new URLSearchParams(await request.text());
      if (
        request.method !== 'POST' ||
        !pathname.startsWith('/weapi/') ||
        request.headers.get('content-type') !== 'application/x-www-form-urlencoded' ||
        !isWeapiForm(form)
      )
        return HttpResponse.json({ code: 400, message: 'not a weapi request' }, { status: 400 });
      const asked = {
        path: pathname,
        cookie: request.headers.get('cookie'),
        referer: request.headers.get('referer'),
        userAgent: request.headers.get('user-agent'),
        ...(options.weapiSecret && { payload: readWeapiPayload(form, options.weapiSecret) }),
      };
      stub.requests.push(asked);
      return stub.reply(pathname, asked, () => {
        const fixture = DEFAULT_ANSWERS.find(([path]) => path.test(pathname))?.[1];
        return HttpResponse.json(fixture ? neteaseFixture(fixture) : { code: 404, message: 'no such api' });
      });
    }),
  );
  return {
    requests: stub.requests,
    /** Answers `path` (e.g. `/weapi/v1/radio/get`) with this body (or Response) until the test ends. */
    answer: stub.answer,
  };
}
