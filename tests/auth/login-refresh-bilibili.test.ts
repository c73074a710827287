/**
 * Renewing a stored Bilibili login (`refresh` of the video_a login) against a stand-in for the web
 * cookie refresh: a login Bilibili does not want renewed stays as it is; one it does is renewed through
 * the correspond page, `cookie/refresh` and `confirm/refresh`, the new cookies and refresh token stored
 * and the other cookies kept; a login Bilibili no longer knows is 'expired'; a login stored without its
 * refresh token, or an unreachable Bilibili, is an error sentence without secrets in it.
 */
import { describe, expect, it } from 'vitest';
import { correspondPath, refreshBilibiliLogin } from '../../shared/sources/bilibili/bilibili-login-refresh';
import { cookieValues } from '../../shared/sources/http/cookies';
import { useBilibiliRefreshApi } from '../helpers/bilibili-refresh-api';

const bilibili = useBilibiliRefreshApi();

const account = (sessdata: string, wantsRefresh: boolean) => {
  bilibili.account({
    sessdata,
    biliJct: `jct-${sessdata}`,
    refreshToken: `rt-${sessdata}`,
    wantsRefresh,
    renewedSessdata: `renewed-${sessdata}`,
  });
  return `SESSDATA=${sessdata}; bili_jct=jct-${sessdata}; DedeUserID=40000001; buvid3=fixture-buvid3; ac_time_value=rt-${sessdata}`;
};

describe('Bilibili login refresh', () => {
  it('keeps a login Bilibili does not want renewed, asking cookie/info with its CSRF token', async () => {
    const stored = account('fresh_sessdata', false);
    expect(await refreshBilibiliLogin(stored)).toEqual({ ok: true, value: { credential: stored } });
    expect(bilibili.requests.map((r) => r.path)).toEqual(['/x/passport-login/web/cookie/info']);
    expect(bilibili.requests[0]?.cookie).toBe(stored);
  });

  it('renews through the correspond page, cookie/refresh and confirm/refresh', async () => {
    const stored = account('stale_sessdata', true);
    const renewed = await refreshBilibiliLogin(stored);
    if (!renewed.ok || renewed.value === 'expired')
      throw new Error(`not renewed: ${JSON.stringify(renewed)}`);
    expect(Object.fromEntries(cookieValues(renewed.value.credential))).toEqual({
      SESSDATA: 'renewed-stale_sessdata',
      bili_jct: 'jct-renewed-stale_sessdata',
      DedeUserID: '40000001',
      buvid3: 'fixture-buvid3',
      ac_time_value: bilibili.nextRefreshToken,
      DedeUserID__ckMd5: 'fixtureckmd5',
      sid: 'sid-renewed-stale_sessdata',
    });
    expect(bilibili.requests.map((r) => r.path)).toEqual([
      '/x/passport-login/web/cookie/info',
      expect.stringMatching(/^\/correspond\/1\/[0-9a-f]{256}$/),
      '/x/passport-login/web/cookie/refresh',
      '/x/passport-login/web/confirm/refresh',
    ]);
    expect(bilibili.requests[2]?.form).toEqual({
      csrf: 'jct-stale_sessdata',
      refresh_csrf: bilibili.refreshCsrf,
      source: 'main_web',
      refresh_token: 'rt-stale_sessdata',
    });
    // The confirmation is sent as the new login and retires the old refresh token.
    expect(bilibili.requests[3]?.cookie).toBe(renewed.value.credential);
    expect(bilibili.confirmed).toEqual(['rt-stale_sessdata']);
  });

  it('encrypts refresh_<timestamp> afresh each time (RSA-OAEP), as 128 bytes of hex', () => {
    const one = correspondPath(1700000000000);
    expect(one).toMatch(/^[0-9a-f]{256}$/);
    expect(correspondPath(1700000000000)).not.toBe(one);
  });

  it('answers expired for a login Bilibili no longer knows (code -101), and for a cookie without SESSDATA', async () => {
    expect(await refreshBilibiliLogin('SESSDATA=gone_sessdata; bili_jct=x; ac_time_value=rt')).toEqual({
      ok: true,
      value: 'expired',
    });
    expect(await refreshBilibiliLogin('buvid3=only-a-browser')).toEqual({ ok: true, value: 'expired' });
  });

  it('cannot renew a login stored without its refresh token, and changes nothing when Bilibili is down', async () => {
    const pasted = account('pasted_sessdata', true).replace(/; ac_time_value=[^;]*/, '');
    const withoutToken = await refreshBilibiliLogin(pasted);
    expect(withoutToken).toEqual({
      ok: false,
      error: 'Bilibili wants the login renewed, but it was stored without its refresh token',
    });
    bilibili.down();
    const down = await refreshBilibiliLogin(account('down_sessdata', true));
    expect(down).toEqual({ ok: false, error: 'Bilibili answered HTTP 503' });
    expect(JSON.stringify([withoutToken, down])).not.toMatch(/sessdata|jct-|rt-/);
  });
});
