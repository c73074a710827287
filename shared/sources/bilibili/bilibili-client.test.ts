/**
 * The Bilibili client's WBI key handling and error sentences, against an msw stand-in that checks
 * every signature with the keys it hands out.
 */
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failedWith, useBilibiliApi, VOUCHER_ANSWER } from '../../../tests/helpers/bilibili-api';
import { BilibiliCatalog } from './bilibili-catalog';
import { BilibiliClient } from './bilibili-client';
import { parseBilibiliCookie } from './bilibili-login';

const api = useBilibiliApi();
const NAV = '/x/web-interface/nav';
const SEARCH = '/x/web-interface/wbi/search/type';
const RISK = 'try again later or store a Bilibili login';
const guestCatalog = () => new BilibiliCatalog(new BilibiliClient(async () => undefined));

afterEach(() => {
  vi.useRealTimers();
});

describe('Bilibili client: WBI keys', () => {
  it('fetches the keys once and signs every call with them', async () => {
    const catalog = guestCatalog();
    expect((await catalog.search('a', 5)).ok).toBe(true);
    expect((await catalog.search('b', 5)).ok).toBe(true);
    expect(api.to(NAV)).toHaveLength(1);
    expect(api.to(SEARCH)).toHaveLength(2);
  });

  it('fetches new keys and signs again when Bilibili refuses a signature made with rotated keys', async () => {
    const catalog = guestCatalog();
    await catalog.search('a', 5);
    api.rotateKeys();
    const result = await catalog.search('b', 5);
    expect(result.ok && result.value).toHaveLength(3);
    expect(api.requests.map((r) => r.path).filter((p) => p === NAV || p === SEARCH)).toEqual([
      NAV,
      SEARCH,
      SEARCH,
      NAV,
      SEARCH,
    ]);
    expect(api.to(SEARCH)[1]!.query.get('w_rid')).not.toBe(api.to(SEARCH)[2]!.query.get('w_rid'));
  });

  it('fetches the keys again once they are an hour old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const catalog = guestCatalog();
    await catalog.search('a', 5);
    vi.setSystemTime(Date.now() + 59 * 60_000);
    await catalog.search('b', 5);
    expect(api.to(NAV)).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await catalog.search('c', 5);
    expect(api.to(NAV)).toHaveLength(2);
  });

  it('says so when Bilibili keeps asking for a captcha after fresh keys', async () => {
    const catalog = guestCatalog();
    await catalog.search('a', 5);
    api.answer(SEARCH, () => HttpResponse.json(VOUCHER_ANSWER));
    expect(await catalog.search('b', 5)).toEqual({
      ok: false,
      error: `Bilibili refused the request as suspected automation (it asked for a captcha); ${RISK}`,
    });
    expect(api.to(NAV)).toHaveLength(2);
  });
});

describe('Bilibili client: errors', () => {
  const catalog = guestCatalog();

  it('reads HTTP 412 and code -352 as risk control', async () => {
    api.answer(SEARCH, () => new HttpResponse('blocked', { status: 412 }));
    expect(await catalog.search('a', 5)).toEqual({
      ok: false,
      error: `Bilibili refused the request as suspected automation (HTTP 412); ${RISK}`,
    });
    api.answer(SEARCH, () => HttpResponse.json(failedWith(-352, '风控校验失败')));
    expect(await catalog.search('a', 5)).toEqual({
      ok: false,
      error: `Bilibili refused the request as suspected automation (code -352); ${RISK}`,
    });
  });

  it('names a network failure, a login problem, rate limits and codes it does not know', async () => {
    api.answer('/x/web-interface/popular', () => HttpResponse.error());
    const offline = await catalog.popular(5);
    expect(!offline.ok && offline.error).toMatch(/^Bilibili could not be reached/);
    api.answer('/x/web-interface/popular', failedWith(-101, '账号未登录'));
    expect(await catalog.popular(5)).toEqual({
      ok: false,
      error: 'Bilibili needs a login for this; log in first',
    });
    const withLogin = new BilibiliCatalog(
      new BilibiliClient(async () => parseBilibiliCookie('SESSDATA=old')),
    );
    expect(await withLogin.popular(5)).toEqual({
      ok: false,
      error: 'the Bilibili login has expired; log in again',
    });
    api.answer('/x/web-interface/popular', failedWith(-509, '请求过于频繁'));
    expect(await catalog.popular(5)).toEqual({
      ok: false,
      error: 'Bilibili is limiting how often we ask; try again in a minute',
    });
    api.answer('/x/web-interface/popular', failedWith(-8888, '服务器开小差了'));
    expect(await catalog.popular(5)).toEqual({
      ok: false,
      error: 'Bilibili refused the popular list (code -8888: 服务器开小差了)',
    });
    api.answer('/x/web-interface/popular', { code: 0, message: '0', data: { list: 'not a list' } });
    expect(await catalog.popular(5)).toEqual({
      ok: false,
      error: 'Bilibili answered the popular list in an unexpected shape',
    });
  });

  it('still calls when the guest id cannot be had, without a cookie', async () => {
    api.answer('/x/frontend/finger/spi', () => HttpResponse.error());
    const fresh = guestCatalog();
    expect((await fresh.popular(2)).ok).toBe(true);
    expect(api.to('/x/web-interface/popular')[0]!.cookie).toBeNull();
  });
});
