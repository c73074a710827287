/**
 * Kugou Music's request signing and the signed client against an msw stand-in that recomputes every
 * signature (tests/helpers/kugou-api.ts): the app and device parameters, the login's token, the
 * gateway router, and the failure sentences.
 */
import { createHash } from 'node:crypto';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { refusedWith, useKugouApi } from '../../../tests/helpers/kugou-api';
import { EXPIRED_LOGIN, GATEWAY_ORIGIN, KugouClient, SECURITY_CHECK } from './kugou-client';
import { type KugouLogin, parseKugouCookie } from './kugou-login';
import { androidSignature, deviceMid, paramsKey, trackerKey, webSignature } from './kugou-signing';

const api = useKugouApi();
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const ANDROID_SALT = 'OIlwieks28dk2k092lksi2UIkp';
const WEB_SALT = 'NVPh5oo715z5DIWAeQlhMDsWXXQV4hwt';
let login: KugouLogin | undefined;
const client = new KugouClient(async () => login);
const search = {
  origin: GATEWAY_ORIGIN,
  path: '/v3/search/song',
  router: 'complexsearch.kugou.com',
  query: { keyword: 'harbour' },
};
const anything = z.unknown();

describe('Kugou signing (MakcRe/KuGouMusicApi util/helper.js)', () => {
  it('signs like the Android app: names sorted, then the body, inside the salt', () => {
    expect(androidSignature({ b: 2, a: 1 }, '{"x":1}')).toBe(
      md5(`${ANDROID_SALT}a=1b=2{"x":1}${ANDROID_SALT}`),
    );
    expect(androidSignature({ b: 2, a: 1 })).toBe(md5(`${ANDROID_SALT}a=1b=2${ANDROID_SALT}`));
  });

  it('signs like the web login page: the name=value strings sorted, inside the web salt', () => {
    // 'a-=2' sorts before 'a=1' as a string, after it by name: the two forms differ here.
    expect(webSignature({ a: 1, 'a-': 2 })).toBe(md5(`${WEB_SALT}a-=2a=1${WEB_SALT}`));
  });

  it('derives the tracker key, the parameter key and the device id as the app does', () => {
    expect(trackerKey('abc', '42', '7')).toBe(md5('abc57ae12eb6890223e355ccfcb74edf70d1005427'));
    expect(paramsKey(1700000000)).toBe(md5(`1005${ANDROID_SALT}204891700000000`));
    expect(deviceMid('abc')).toBe('191415658344158766168031473277922803570');
  });
});

describe('Kugou requests', () => {
  it('sends the app and device parameters, signed, through the named router', async () => {
    login = undefined;
    const before = Math.floor(Date.now() / 1000);
    expect((await client.call(search, anything)).ok).toBe(true);
    const [asked] = api.requests;
    expect(asked!.query).toMatchObject({
      appid: '1005',
      clientver: '20489',
      uuid: '-',
      keyword: 'harbour',
    });
    // The anonymous device has a fingerprint id of its own, as the reference makes one.
    expect(asked!.query.dfid).toMatch(/^[0-9A-Z]{24}$/);
    expect(asked!.dfid).toBe(asked!.query.dfid);
    expect(asked!.query.mid).toMatch(/^\d+$/);
    expect(asked!.mid).toBe(asked!.query.mid);
    expect(Number(asked!.query.clienttime)).toBeGreaterThanOrEqual(before);
    expect(asked!.query).not.toHaveProperty('token');
    expect(asked!.router).toBe('complexsearch.kugou.com');
    expect(asked!.userAgent).toMatch(/^Android/);
  });

  it('sends the login token, account and device with every request', async () => {
    login = parseKugouCookie('token=fixturetoken0001; userid=123456789; KUGOU_API_MID=4242');
    await client.call(search, anything);
    expect(api.requests[0]!.query).toMatchObject({
      token: 'fixturetoken0001',
      userid: '123456789',
      mid: '4242',
    });
  });

  it('signs a POST body with the parameters', async () => {
    login = undefined;
    const answer = await client.call(
      { origin: GATEWAY_ORIGIN, path: '/v3/get_list_info', body: { data: [{ global_collection_id: 'x' }] } },
      anything,
    );
    expect(answer.ok).toBe(true);
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      body: { data: [{ global_collection_id: 'x' }] },
    });
  });

  it('is refused by the stand-in when the signature does not match', async () => {
    const response = await fetch(`${GATEWAY_ORIGIN}/v3/search/song?appid=1005&signature=0000`);
    expect(await response.json()).toEqual({ status: 0, error_code: 20001, data: null });
  });

  it("is refused by the stand-in without the app's kg-* marks, however well signed", async () => {
    const params = {
      appid: 1005,
      clientver: 20489,
      clienttime: 1,
      mid: '1',
      dfid: '-',
      uuid: '-',
      keyword: 'x',
    };
    const query = new URLSearchParams({
      ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
      signature: androidSignature(params),
    });
    const headers = { mid: '1', dfid: '-', clienttime: '1' };
    const bare = await fetch(`${GATEWAY_ORIGIN}/v3/search/song?${query}`, { headers });
    expect(await bare.json()).toEqual({ status: 0, error_code: 20001, data: null });
  });

  it("sends the app's marks on every request, the login host's included", async () => {
    await client.call(search, anything);
    await client.call(
      { origin: 'https://login-user.kugou.com', path: '/v2/qrcode', signing: 'web' },
      anything,
    );
    expect(api.requests).toHaveLength(2);
    // The stand-in answered both: it refuses a request without the marks as a bad signature.
    expect(api.requests.every((r) => r.dfid && r.mid)).toBe(true);
  });
});

describe('Kugou failures', () => {
  it('says the login expired when Kugou refuses the stored token', async () => {
    login = parseKugouCookie('token=old; userid=123456789');
    for (const code of [20010, 20017, 20018]) {
      api.answer('/v3/search/song', refusedWith(code));
      expect(await client.call(search, anything)).toEqual({ ok: false, error: EXPIRED_LOGIN });
    }
  });

  it('asks for a login when an anonymous request needs one', async () => {
    login = undefined;
    api.answer('/v3/search/song', refusedWith(20018));
    expect(await client.call(search, anything)).toEqual({
      ok: false,
      error: 'Kugou Music needs a login for this; log in first',
    });
  });

  it('says in plain words that Kugou wants a security check (its ssa-code header)', async () => {
    login = undefined;
    api.answer('/v3/search/song', () =>
      HttpResponse.json(refusedWith(30020), { headers: { 'ssa-code': 'fixture-ssa' } }),
    );
    expect(await client.call(search, anything)).toEqual({ ok: false, error: SECURITY_CHECK });
    expect(SECURITY_CHECK).toMatch(/security check.*try again later, or log in/);
  });

  it('names the refused path and code, the HTTP status and an unexpected shape', async () => {
    login = undefined;
    api.answer('/v3/search/song', refusedWith(30001));
    expect(await client.call(search, anything)).toEqual({
      ok: false,
      error: 'Kugou Music refused /v3/search/song (code 30001)',
    });
    api.answer('/v3/search/song', () => new HttpResponse('down', { status: 502 }));
    expect(await client.call(search, anything)).toEqual({
      ok: false,
      error: 'Kugou Music answered HTTP 502',
    });
    api.answer('/v3/search/song', { nothing: true });
    expect(await client.call(search, anything)).toEqual({
      ok: false,
      error: 'Kugou Music answered /v3/search/song in an unexpected shape',
    });
  });
});
