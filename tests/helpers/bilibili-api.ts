/**
 * A stand-in for Bilibili's web API (msw) that checks the real request shape: every call is a GET to
 * `https://api.bilibili.com/x/…` with the site's Referer and a browser User-Agent (else HTTP 412, as
 * Bilibili's risk control answers), and every `/wbi/` route carries `wts` and a `w_rid` of 32 hex
 * digits that must be the signature made with the keys `nav` currently hands out — a stale or wrong
 * one gets the `v_voucher` answer Bilibili gives. `rotateKeys()` changes the keys as Bilibili does
 * daily. Answers come from the trimmed fixtures in tests/fixtures/bilibili; tests swap single answers
 * with `answer(...)`.
 *
 * Shapes from SocialSisterYi/bilibili-API-collect; see tests/fixtures/bilibili/README.md.
 */
import { HttpResponse, http } from 'msw';
import { BILIBILI_API } from '../../shared/sources/bilibili/bilibili-client';
import { mixinKey, signQuery } from '../../shared/sources/bilibili/wbi';
import { useMswServer } from './msw-server';
import { readFixture, requestsTo, usePlatformStub } from './platform-stub';

export interface BilibiliRequest {
  path: string;
  query: URLSearchParams;
  cookie: string | null;
  referer: string | null;
  userAgent: string | null;
}

export const bilibiliFixture = (name: string) => readFixture<Record<string, unknown>>('bilibili', name);

/** The key pairs `nav` hands out, first the fixture's, then the one after a rotation. */
const KEY_PAIRS = [
  ['0a1b2c3d4e5f60718293a4b5c6d7e8f9', 'f9e8d7c6b5a493827160f5e4d3c2b1a0'],
  ['1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f', '6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c'],
] as const;

export const VOUCHER_ANSWER = { code: 0, message: '0', ttl: 1, data: { v_voucher: 'voucher_fixture-0001' } };
export const failedWith = (code: number, message = '') => ({ code, message, ttl: 1 });

/** The video `view` answers for each BV id and `av` number it knows; anything else is -404. */
const VIDEOS = [
  { bvid: 'BV1Ux4y1c7Mq', aid: '170001', fixture: 'view' },
  { bvid: 'BV1Qm4y1Z7Kp', aid: '170002', fixture: 'view-multipart' },
];

const DEFAULT_ANSWERS: Record<string, (query: URLSearchParams) => object> = {
  '/x/frontend/finger/spi': () => bilibiliFixture('spi'),
  '/x/web-interface/wbi/search/type': () => bilibiliFixture('search'),
  '/x/web-interface/popular': () => bilibiliFixture('popular'),
  '/x/player/wbi/playurl': () => bilibiliFixture('playurl'),
  // Related videos of the single-part fixture video; any other is -404, as for `view`.
  '/x/web-interface/archive/related': (query) =>
    query.get('bvid') === VIDEOS[0]!.bvid ? bilibiliFixture('related') : failedWith(-404, '啥都木有'),
  '/x/web-interface/view': (query) => {
    const video = VIDEOS.find((v) => v.bvid === query.get('bvid') || v.aid === query.get('aid'));
    return video ? bilibiliFixture(video.fixture) : failedWith(-404, '啥都木有');
  },
};

export function useBilibiliApi() {
  const stub = usePlatformStub<BilibiliRequest>();
  let keyPair = 0;
  const navAnswer = () => {
    const [img, sub] = KEY_PAIRS[keyPair]!;
    const nav = bilibiliFixture('nav') as { data: { wbi_img: { img_url: string; sub_url: string } } };
    nav.data.wbi_img = {
      img_url: `https://i0.hdslb.com/bfs/wbi/${img}.png`,
      sub_url: `https://i0.hdslb.com/bfs/wbi/${sub}.png`,
    };
    return nav;
  };
  const validSignature = (query: URLSearchParams) => {
    const wRid = query.get('w_rid') ?? '';
    const wts = query.get('wts') ?? '';
    if (!/^[0-9a-f]{32}$/.test(wRid) || !/^\d+$/.test(wts)) return false;
    const params = Object.fromEntries([...query].filter(([name]) => name !== 'w_rid' && name !== 'wts'));
    const [img, sub] = KEY_PAIRS[keyPair]!;
    return signQuery(params, mixinKey(img, sub), Number(wts)).endsWith(`&w_rid=${wRid}`);
  };

  useMswServer(
    http.all(`${BILIBILI_API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const asked = {
        path: url.pathname,
        query: url.searchParams,
        cookie: request.headers.get('cookie'),
        referer: request.headers.get('referer'),
        userAgent: request.headers.get('user-agent'),
      };
      stub.requests.push(asked);
      if (
        request.method !== 'GET' ||
        asked.referer !== 'https://www.bilibili.com/' ||
        !asked.userAgent?.startsWith('Mozilla/5.0')
      )
        return new HttpResponse('risk control', { status: 412 });
      return stub.reply(
        url.pathname,
        asked,
        () => {
          if (url.pathname === '/x/web-interface/nav') return HttpResponse.json(navAnswer());
          const fixture = DEFAULT_ANSWERS[url.pathname];
          return HttpResponse.json(fixture ? fixture(url.searchParams) : failedWith(-404, '啥都木有'));
        },
        // A badly signed wbi request gets the voucher even where a test set a body; a Response it makes does not.
        () =>
          url.pathname.includes('/wbi/') && !validSignature(url.searchParams)
            ? HttpResponse.json(VOUCHER_ANSWER)
            : undefined,
      );
    }),
  );
  return {
    requests: stub.requests,
    /** The requests to one path, in order. */
    to: requestsTo(stub.requests),
    /** Answers `path` with this body (or Response) until the test ends. */
    answer: stub.answer,
    /** Hands out the other key pair from now on, as Bilibili does once a day. */
    rotateKeys() {
      keyPair = (keyPair + 1) % KEY_PAIRS.length;
    },
  };
}
