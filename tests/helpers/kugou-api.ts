/**
 * A stand-in for Kugou Music's app API (msw): the gateway (`gateway.kugou.com`), the login host and
 * the lyric service. Every request must have the real shape — the app's marks (`kg-rc`, `kg-thash`,
 * `kg-rec`, `kg-rf`) and the device (`mid`, `dfid`, `clienttime`) as headers, the app and device
 * parameters (`appid`, `clientver`, `clienttime`, `mid`, `dfid`, `uuid`; the lyric search only its
 * own), and a `signature` that is the md5 of those parameters (and the JSON body) in the app's salt,
 * the web salt on the login host — or it is refused the way Kugou refuses a bad signature. The tracker
 * (`/v5/url`) also wants a device fingerprint: a `dfid` of 24 digits and capitals, never "-". Answers come from the
 * trimmed fixtures in tests/fixtures/kugou; the lyric download is a real KRC file, encrypted here from
 * the plain text fixture (`encryptKrc`: deflate, XOR with the published key, `krc1` header, base64).
 * Tests swap single answers with `answer(path, …)` and read what was asked in `requests`.
 *
 * Shapes from MakcRe/KuGouMusicApi (util/request.js, util/helper.js, module/*.js) and MoeKoeMusic;
 * see tests/fixtures/kugou/README.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { HttpResponse, http } from 'msw';
import { KRC_HEADER, xorKrc } from '../../shared/sources/kugou/krc';
import { LOGIN_ORIGIN } from '../../shared/sources/kugou/kugou-client';
import { androidSignature, webSignature } from '../../shared/sources/kugou/kugou-signing';
import { useMswServer } from './msw-server';
import { readFixture, requestsTo, usePlatformStub } from './platform-stub';

export interface KugouRequest {
  origin: string;
  path: string;
  method: string;
  query: Record<string, string>;
  /** The parsed JSON body of a POST. */
  body: unknown;
  router: string | null;
  userAgent: string | null;
  /** The `mid` header: the device the request says it comes from. */
  mid: string | null;
  /** The `dfid` header: the device's fingerprint id. */
  dfid: string | null;
}

export const kugouFixture = (name: string) => readFixture<Record<string, unknown>>('kugou', name);
const fixtureText = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/kugou', name), 'utf8');

/** A KRC file as Kugou's lyric service sends it: the encoder of krc.ts's decoder, run in reverse. */
export function encryptKrc(text: string): string {
  const body = xorKrc(deflateSync(Buffer.from(text, 'utf8')));
  return Buffer.concat([Buffer.from(KRC_HEADER, 'latin1'), body]).toString('base64');
}

/** The LRC the fixture's KRC reads as: tags kept, word timings gone, translations after their lines. */
export const FIXTURE_LRC = [
  '[ar:Fixture Band]',
  '[ti:Fixture Harbour]',
  '[by:]',
  '[00:01.23]Harbour lights glow',
  '[00:01.23]海港的灯光',
  '[00:03.73](instrumental)',
  '[01:01.05]We sail home',
  '[01:01.05]我们回家',
].join('\n');

/** The fixture answering each path by default. */
const DEFAULT_ANSWERS: Record<string, string> = {
  '/v3/search/song': 'search-songs',
  '/v1/search/album': 'search-albums',
  '/v1/search/special': 'search-playlists',
  '/pubsongs/v2/get_other_list_file_nofilt': 'playlist-songs',
  '/v1/album_audio/lite': 'album-songs',
  '/v2/special_recommend': 'special-recommend',
  '/v2/personal_recommend': 'personal-fm',
  '/v3/get_my_info': 'my-info',
  '/v2/qrcode': 'qr-key',
  '/v2/get_userinfo_qrcode': 'qr-status',
  '/v1/search': 'lyric-search',
  '/v5/url': 'song-url',
};

const APP_PARAMS = ['appid', 'clientver', 'clienttime', 'mid', 'dfid', 'uuid'];
const LYRIC_SEARCH_PARAMS = [
  'album_audio_id',
  'appid',
  'clientver',
  'duration',
  'hash',
  'keyword',
  'lrctxt',
  'man',
];
/** The marks the app puts on every request (MakcRe/KuGouMusicApi util/request.js), written out here. */
const APP_MARKS = {
  'kg-rc': '1',
  'kg-thash': '5d816a0',
  'kg-rec': '1',
  'kg-rf': 'B9EDA08A64250DEFFBCADDEE00F8F25F',
};
const DEVICE_FINGERPRINT = /^[0-9A-Z]{24}$/;

/** Whether a request carries the app's marks and its device headers, as every app request does. */
export function hasAppHeaders(headers: Headers): boolean {
  return (
    Object.entries(APP_MARKS).every(([name, value]) => headers.get(name) === value) &&
    ['mid', 'dfid'].every((name) => headers.get(name))
  );
}

/** How Kugou answers a request whose signature does not match (its "signature error"). */
const BAD_SIGNATURE = { status: 0, error_code: 20001, data: null };

/**
 * The default answers that depend on the request: the privilege look-up, the lyric download, playlists,
 * and the personal FM's batch that follows a song that played (asked with its `hash`).
 */
function dynamicAnswer(asked: KugouRequest): object | undefined {
  if (asked.path === '/v2/personal_recommend' && (asked.body as { hash?: unknown }).hash !== undefined)
    return kugouFixture('personal-fm-after-song');
  if (asked.path === '/v2/get_res_privilege/lite') {
    const wanted = (asked.body as { resource: { hash: string }[] }).resource.map((r) => r.hash.toLowerCase());
    const data = (kugouFixture('privilege').data as { hash: string }[]).filter((item) =>
      wanted.includes(item.hash),
    );
    return { status: 1, error_code: 0, data };
  }
  if (asked.path === '/v3/get_list_info') {
    const wanted = (asked.body as { data: { global_collection_id: string }[] }).data[0]?.global_collection_id;
    const data = (kugouFixture('playlist-info').data as { global_collection_id: string }[]).filter(
      (list) => list.global_collection_id === wanted,
    );
    return { status: 1, error_code: 0, data };
  }
  if (asked.path === '/download') {
    const lrc = asked.query.fmt === 'lrc';
    return {
      status: 200,
      info: 'OK',
      charset: 'utf8',
      fmt: asked.query.fmt,
      contenttype: 0,
      content: lrc
        ? Buffer.from(fixtureText('lyric.lrc.txt')).toString('base64')
        : encryptKrc(fixtureText('lyric.krc.txt')),
    };
  }
  return undefined;
}

function signatureMatches(asked: KugouRequest, bodyText: string): boolean {
  const { signature, ...params } = asked.query;
  if (!signature) return false;
  const expected = asked.origin === LOGIN_ORIGIN ? webSignature(params) : androidSignature(params, bodyText);
  return signature === expected;
}

function hasRequiredParams(asked: KugouRequest): boolean {
  const required = asked.path === '/v1/search' ? LYRIC_SEARCH_PARAMS : APP_PARAMS;
  if (!required.every((name) => asked.query[name] !== undefined)) return false;
  return asked.path !== '/v5/url' || DEVICE_FINGERPRINT.test(asked.query.dfid ?? '');
}

export function useKugouApi() {
  const stub = usePlatformStub<KugouRequest>();
  const handler = http.all(/^https:\/\/(gateway|login-user|lyrics)\.kugou\.com\//, async ({ request }) => {
    const url = new URL(request.url);
    const bodyText = request.method === 'POST' ? await request.text() : '';
    const asked: KugouRequest = {
      origin: url.origin,
      path: url.pathname,
      method: request.method,
      query: Object.fromEntries(url.searchParams),
      body: bodyText ? JSON.parse(bodyText) : undefined,
      router: request.headers.get('x-router'),
      userAgent: request.headers.get('user-agent'),
      mid: request.headers.get('mid'),
      dfid: request.headers.get('dfid'),
    };
    stub.requests.push(asked);
    return stub.reply(
      asked.path,
      asked,
      () => {
        const fixture = DEFAULT_ANSWERS[asked.path];
        const answer = dynamicAnswer(asked) ?? (fixture ? kugouFixture(fixture) : undefined);
        return HttpResponse.json(answer ?? { status: 0, error_code: 404, data: null });
      },
      () =>
        signatureMatches(asked, bodyText) && hasRequiredParams(asked) && hasAppHeaders(request.headers)
          ? undefined
          : HttpResponse.json(BAD_SIGNATURE),
    );
  });
  useMswServer(handler);
  return {
    requests: stub.requests,
    /** Answers `path` (e.g. `/v3/search/song`) with this body (or Response) until the test ends. */
    answer: stub.answer,
    /** The logged requests to one path. */
    to: requestsTo(stub.requests),
  };
}

/** A gateway envelope refused with this `error_code`. */
export const refusedWith = (code: number) => ({ status: 0, error_code: code, data: null });
