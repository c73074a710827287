/**
 * Renewing a stored Kugou Music login (`refresh` of the music_c login) against a stand-in for
 * `/v5/login_by_token`: the request's shape (its host, signed app parameters, `p3` holding the old token,
 * `pk`/`params` of a one-time session), the new token read from `data.token` or from `secu_params`
 * encrypted for that session, the device kept, a token Kugou no longer accepts as 'expired', and an
 * unreachable Kugou as an error sentence without the token in it.
 */
import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cookieValues } from '../../shared/sources/http/cookies';
import { refreshKugouLogin, sessionCipher } from '../../shared/sources/kugou/kugou-login-refresh';
import { useKugouRefreshApi } from '../helpers/kugou-refresh-api';

const kugou = useKugouRefreshApi();
/** The fixture's account, with the device the token was issued to. */
const STORED = 'token=old_kugou_token; userid=40000002; KUGOU_API_MID=123456789; dfid=fixturedfid';
const SESSION = 'fixedsession0001';

describe('Kugou login refresh', () => {
  it('sends the old token the way the app does and stores the new one with the same device', async () => {
    kugou.renew('old_kugou_token', 'new_kugou_token');
    const renewed = await refreshKugouLogin(STORED, () => SESSION);
    expect(renewed).toEqual({
      ok: true,
      value: {
        credential: 'token=new_kugou_token; userid=40000002; KUGOU_API_MID=123456789; dfid=fixturedfid',
      },
    });
    const [asked] = kugou.requests;
    // Asked of the login service itself, no longer through the gateway's router.
    expect(asked?.router).toBeNull();
    expect(asked?.query).toMatchObject({ token: 'old_kugou_token', userid: '40000002', mid: '123456789' });
    expect(asked?.p3.token).toBe('old_kugou_token');
    expect(asked?.body).toMatchObject({
      dfid: 'fixturedfid',
      plat: 1,
      t1: 0,
      t2: 0,
      t3: 'MCwwLDAsMCwwLDAsMCwwLDA=',
      userid: '40000002',
      clienttime_ms: expect.any(Number),
    });
    expect(asked?.p3.clienttime).toBe(Math.floor(Number(asked?.body.clienttime_ms) / 1000));
    // `pk` is 1024-bit RSA for Kugou (lower-case hex); `params` is `{}` under the session key.
    expect(asked?.body.pk).toMatch(/^[0-9a-f]{256}$/);
    const { key, iv } = sessionCipher(SESSION);
    const cipher = createCipheriv('aes-256-cbc', key, iv);
    expect(asked?.body.params).toBe(Buffer.concat([cipher.update('{}'), cipher.final()]).toString('hex'));
  });

  it('reads a new token Kugou sends inside secu_params, encrypted for the session', async () => {
    kugou.renew('secu_kugou_token', 'next_secu_token', SESSION);
    const renewed = await refreshKugouLogin(
      'token=secu_kugou_token; userid=40000002; KUGOU_API_MID=123456789; dfid=-',
      () => SESSION,
    );
    expect(
      renewed.ok && renewed.value !== 'expired' && cookieValues(renewed.value.credential).get('token'),
    ).toBe('next_secu_token');
  });

  it('is an error when secu_params was not encrypted for this session', async () => {
    kugou.renew('secu_kugou_token', 'next_secu_token', 'anothersession01');
    const renewed = await refreshKugouLogin(
      'token=secu_kugou_token; userid=40000002; KUGOU_API_MID=123456789; dfid=-',
      () => SESSION,
    );
    expect(renewed).toEqual({
      ok: false,
      error: 'Kugou Music answered the login renewal in an unexpected shape',
    });
  });

  it('answers expired for a token Kugou no longer accepts (error 20017), and for a cookie without one', async () => {
    expect(await refreshKugouLogin('token=dead_kugou_token; userid=40000002')).toEqual({
      ok: true,
      value: 'expired',
    });
    expect(await refreshKugouLogin('userid=40000002')).toEqual({ ok: true, value: 'expired' });
  });

  it('is an error sentence, without the token, when Kugou cannot be reached', async () => {
    kugou.renew('old_kugou_token', 'new_kugou_token');
    kugou.down();
    const down = await refreshKugouLogin(STORED);
    expect(down).toEqual({ ok: false, error: 'Kugou Music answered HTTP 502' });
  });
});
