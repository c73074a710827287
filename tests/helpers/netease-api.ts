/**
 * A stand-in for NetEase Cloud Music's weapi (msw): every request must have the real shape — a form
 * POST to `https://music.163.com/weapi/…` whose body is exactly `params` (base64) and `encSecKey`
 * (256 hex digits) — or it is answered HTTP 400. The payload itself cannot be read here (its key is
 * RSA-encrypted for NetEase), so tests check paths, headers and cookies. Answers come from the trimmed
 * fixtures in tests/fixtures/netease; tests swap single answers with `answer(...)`.
 *
 * Shapes from Binaryify/NeteaseCloudMusicApi (util/request.js, util/crypto.js, module/*.js); see
 * tests/fixtures/netease/README.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { afterEach } from 'vitest';
import { NETEASE_ORIGIN } from '../../shared/sources/netease/netease-client';
import { useMswServer } from './msw-server';

export interface NeteaseRequest {
  path: string;
  cookie: string | null;
  referer: string | null;
  userAgent: string | null;
}

export function neteaseFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/netease', `${name}.json`), 'utf8'));
}

/** The fixture answering each path by default; album paths carry the album id. */
const DEFAULT_ANSWERS: [RegExp, string][] = [
  [/^\/weapi\/cloudsearch\/get\/web$/, 'search'],
  [/^\/weapi\/v3\/song\/detail$/, 'song-detail'],
  [/^\/weapi\/v6\/playlist\/detail$/, 'playlist'],
  [/^\/weapi\/v1\/album\/\d+$/, 'album'],
  [/^\/weapi\/v1\/radio\/get$/, 'personal-fm'],
  [/^\/weapi\/song\/enhance\/player\/url\/v1$/, 'song-url'],
];

/** What a test wants a path answered with: a JSON body, or a Response made from the request. */
type Answer = object | ((request: NeteaseRequest) => Response);

const isWeapiForm = (form: URLSearchParams) =>
  [...form.keys()].sort().join() === 'encSecKey,params' &&
  /^[A-Za-z0-9+/]+={0,2}$/.test(form.get('params') ?? '') &&
  /^[0-9a-f]{256}$/.test(form.get('encSecKey') ?? '');

export function useNeteaseApi() {
  const requests: NeteaseRequest[] = [];
  const overrides = new Map<string, Answer>();
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
      };
      requests.push(asked);
      const override = overrides.get(pathname);
      if (typeof override === 'function') return override(asked);
      const fixture = DEFAULT_ANSWERS.find(([path]) => path.test(pathname))?.[1];
      if (override === undefined && !fixture) return HttpResponse.json({ code: 404, message: 'no such api' });
      return HttpResponse.json((override ?? neteaseFixture(fixture!)) as Record<string, unknown>);
    }),
  );
  afterEach(() => {
    requests.length = 0;
    overrides.clear();
  });
  return {
    requests,
    /** Answers `path` (e.g. `/weapi/v1/radio/get`) with this body (or Response) until the test ends. */
    answer(path: string, body: Answer) {
      overrides.set(path, body);
    },
  };
}
