/**
 * A stand-in for NetEase Cloud Music's APIs (msw), in the three forms its clients send (read and checked
 * by netease-protocol.ts): the web player's weapi on music.163.com, the desktop client's eapi on
 * interfacepc.music.163.com and the Android app's xeapi on interface3.music.163.com (with its key
 * request). A request without the real shape, or without the device cookies every NetEase client sends
 * (and, without a login, the anonymous token), is answered HTTP 400. The anonymous device's key request
 * and registration are answered here and logged apart (`registrations`), not in `requests`. Answers
 * come from the trimmed fixtures in tests/fixtures/netease (xeapi answers sealed as the app receives
 * them); tests swap single answers with `answer(...)`.
 *
 * Shapes from NeteaseCloudMusicApiEnhanced/api-enhanced (util/request.js, util/crypto.js, module/*.js);
 * see tests/fixtures/netease/README.md.
 */
import { HttpResponse, http } from 'msw';
import { cookieValues } from '../../shared/sources/http/cookies';
import { useMswServer } from './msw-server';
import {
  keyAnswer,
  type ReadRequest,
  readNeteaseRequest,
  registrationAnswer,
  sealedAppAnswer,
} from './netease-protocol';
import { readFixture, usePlatformStub } from './platform-stub';

export type NeteaseRequest = ReadRequest;

export const neteaseFixture = (name: string) => readFixture<Record<string, unknown>>('netease', name);

/** The login (`MUSIC_U`) a stored cookie holds: what a request made with it carries. */
export const musicUOf = (cookie: string): string | undefined => cookieValues(cookie).get('MUSIC_U');

/** Every NetEase API host, and the app's key request. */
export const NETEASE_HOSTS = /^https:\/\/(music|interfacepc\.music|interface3\.music)\.163\.com\//;
export const KEY_URL = 'https://interface.music.163.com/api/gorilla/anti/crawler/security/key/get';
const REGISTER = '/xeapi/register/anonimous';

/** The fixture answering each path by default; album paths carry the album id. */
const DEFAULT_ANSWERS: [RegExp, string][] = [
  [/^\/eapi\/cloudsearch\/pc$/, 'search'],
  [/^\/(?:weapi|eapi)\/v3\/song\/detail$/, 'song-detail'],
  [/^\/eapi\/v6\/playlist\/detail$/, 'playlist'],
  [/^\/weapi\/v1\/album\/\d+$/, 'album'],
  [/^\/weapi\/v1\/radio\/get$/, 'personal-fm'],
  [/^\/weapi\/v1\/discovery\/simiSong$/, 'simi-song'],
  [/^\/xeapi\/song\/enhance\/player\/url\/v1$/, 'song-url'],
  [/^\/eapi\/song\/lyric$/, 'lyric'],
  [/^\/weapi\/personalized\/playlist$/, 'personalized'],
  [/^\/weapi\/v1\/discovery\/recommend\/resource$/, 'recommend-resource'],
  [/^\/weapi\/v3\/discovery\/recommend\/songs$/, 'recommend-songs'],
  [/^\/weapi\/w\/nuser\/account\/get$/, 'account'],
  [/^\/weapi\/user\/playlist$/, 'user-playlist'],
];

/**
 * An answer in the form the request came in: a JSON answer to the app form is sealed as the app
 * receives it (so tests answer every form with plain bodies).
 */
export async function answerIn(asked: ReadRequest, response: Response): Promise<Response> {
  if (asked.form !== 'app' || !response.headers.get('content-type')?.includes('application/json'))
    return response;
  const headers = new Headers(response.headers);
  headers.delete('content-type');
  return sealedAppAnswer(await response.json(), headers);
}

/** The key request and the anonymous registration, which every stand-in file needs answered. */
export function deviceHandlers(registrations: ReadRequest[], weapiSecret?: string) {
  return [
    http.post(KEY_URL, ({ request }) => keyAnswer(request)),
    http.post(`https://interface3.music.163.com${REGISTER}`, async ({ request }) => {
      const asked = await readNeteaseRequest(request, weapiSecret);
      if (asked instanceof Response) return asked;
      registrations.push(asked);
      return registrationAnswer(asked);
    }),
  ];
}

export function useNeteaseApi(options: { weapiSecret?: string } = {}) {
  const stub = usePlatformStub<NeteaseRequest>();
  /** The anonymous device's registrations, over the whole file (a registration outlives a test). */
  const registrations: ReadRequest[] = [];
  useMswServer(
    ...deviceHandlers(registrations, options.weapiSecret),
    http.all(NETEASE_HOSTS, async ({ request }) => {
      const asked = await readNeteaseRequest(request, options.weapiSecret);
      if (asked instanceof Response) return asked;
      stub.requests.push(asked);
      const response = await stub.reply(asked.path, asked, () => {
        const fixture = DEFAULT_ANSWERS.find(([path]) => path.test(asked.path))?.[1];
        return HttpResponse.json(fixture ? neteaseFixture(fixture) : { code: 404, message: 'no such api' });
      });
      return answerIn(asked, response);
    }),
  );
  return {
    requests: stub.requests,
    registrations,
    /** Answers `path` (e.g. `/weapi/v1/radio/get`) with this body (or Response) until the test ends. */
    answer: stub.answer,
  };
}
