/**
 * Renewing a stored QQ Music login (`refresh` of the music_b login) against a stand-in for musicu's
 * `music.login.LoginServer`/`Login`: a QR login stores what renewing needs; the request's shape
 * (`comm.tmeLoginType`, the renewal params, asked as the login); the new key stored under the names the
 * cookie uses, with the new renewal fields; a login QQ Music no longer accepts as 'expired'; a pasted
 * cookie, which cannot be renewed, and an unreachable QQ Music as error sentences without secrets.
 */
import { describe, expect, it } from 'vitest';
import { cookieValues } from '../../shared/sources/http/cookies';
import { PLATFORM_MODULES } from '../../shared/sources/platform-modules';
import { refreshQqMusicLogin } from '../../shared/sources/qq-music/qq-music-login-refresh';
import { qqMusicQrLogin } from '../../shared/sources/qq-music/qq-music-qr-login';
import { QQ_MUSIC_KEY, useQqMusicLoginApi } from '../helpers/qq-music-login-api';
import { useQqMusicRefreshApi } from '../helpers/qq-music-refresh-api';

// The renewal stand-in first: it leaves every other musicu call to the QR login's.
const refresh = useQqMusicRefreshApi();
const qq = useQqMusicLoginApi();

/** A QR login's stored cookie, as qq-music-qr-login.ts writes it for the fixture's account. */
const STORED = [
  'uin=123456789',
  'qqmusic_key=Q_H_L_storedkey',
  'qm_keyst=Q_H_L_storedkey',
  'euin=owFixtureEnc7z**',
  'openid=FIXTUREOPENID0000000000000000000',
  'access_token=stored_access_token',
  'expired_at=1800000000',
  'refresh_token=stored_refresh_token',
  'refresh_key=stored_refresh_key',
  'tmeLoginType=2',
].join('; ');
const STORED_LOGIN = { musicKey: 'Q_H_L_storedkey', refreshToken: 'stored_refresh_token' };
const SECRETS = ['Q_H_L_storedkey', 'stored_access_token', 'stored_refresh_token', 'stored_refresh_key'];

describe('QQ Music login refresh', () => {
  it('is offered by the music_b login', () => {
    const login = PLATFORM_MODULES.music_b.login();
    expect(login.refresh).toBe(refreshQqMusicLogin);
  });

  it('keeps what renewing needs when a QR code logs in', async () => {
    const started = await qqMusicQrLogin.start();
    if (!started.ok) throw new Error(started.error);
    qq.confirm();
    const polled = await qqMusicQrLogin.poll(started.value.state);
    if (!polled.ok || polled.value.status !== 'confirmed') throw new Error('the QR login did not confirm');
    expect(Object.fromEntries(cookieValues(polled.value.credential))).toEqual({
      uin: '123456789',
      qqmusic_key: QQ_MUSIC_KEY,
      qm_keyst: QQ_MUSIC_KEY,
      euin: 'owFixtureEnc7z**',
      openid: 'FIXTUREOPENID0000000000000000000',
      access_token: 'fixture_access_token',
      expired_at: '1800000000',
      refresh_token: 'fixture_refresh_token',
      refresh_key: 'fixture_refresh_key',
      tmeLoginType: '2',
    });
  });

  it('asks as the login with its renewal fields and stores the new key and fields', async () => {
    refresh.renew('stored_refresh_key', STORED_LOGIN);
    const renewed = await refreshQqMusicLogin(STORED);
    expect(renewed).toEqual({
      ok: true,
      value: {
        credential: [
          'uin=123456789',
          'qqmusic_key=Q_H_L_fixturemusickey0002',
          'qm_keyst=Q_H_L_fixturemusickey0002',
          'euin=owFixtureEnc7z**',
          'openid=FIXTUREOPENID0000000000000000000',
          'access_token=fixture_access_token_2',
          'expired_at=1800050000',
          'refresh_token=fixture_refresh_token_2',
          'refresh_key=fixture_refresh_key_2',
          'tmeLoginType=2',
        ].join('; '),
      },
    });
    const [asked] = refresh.requests;
    expect(asked?.req_0.module).toBe('music.login.LoginServer');
    expect(asked?.req_0.method).toBe('Login');
    expect(asked?.comm).toMatchObject({ tmeLoginType: 2, qq: '123456789', authst: 'Q_H_L_storedkey' });
    expect(asked?.req_0.param).toEqual({
      openid: 'FIXTUREOPENID0000000000000000000',
      access_token: 'stored_access_token',
      refresh_token: 'stored_refresh_token',
      expired_in: 1800000000,
      musicid: 123456789,
      musickey: 'Q_H_L_storedkey',
      refresh_key: 'stored_refresh_key',
      loginMode: 2,
    });
  });

  it('renews the key only under the name the cookie keeps it', async () => {
    refresh.renew('stored_refresh_key', STORED_LOGIN);
    const renewed = await refreshQqMusicLogin(STORED.replace('qqmusic_key=Q_H_L_storedkey; ', ''));
    const values =
      renewed.ok && renewed.value !== 'expired' ? cookieValues(renewed.value.credential) : undefined;
    expect(values?.get('qm_keyst')).toBe('Q_H_L_fixturemusickey0002');
    expect(values?.has('qqmusic_key')).toBe(false);
  });

  it('answers expired when QQ Music no longer accepts the login (code 1000)', async () => {
    expect(await refreshQqMusicLogin(STORED)).toEqual({ ok: true, value: 'expired' });
    expect(refresh.requests).toHaveLength(1);
  });

  it('leaves a pasted cookie without renewal fields or a WeChat login as it is, asking nothing', async () => {
    const pasted = 'uin=o0987654321; qqmusic_key=Q_H_L_pastedkey';
    expect(await refreshQqMusicLogin(pasted)).toEqual({ ok: true, value: { credential: pasted } });
    const wechat = STORED.replace('tmeLoginType=2', 'tmeLoginType=1');
    expect(await refreshQqMusicLogin(wechat)).toEqual({ ok: true, value: { credential: wechat } });
    expect(refresh.requests).toEqual([]);
  });

  it('is an error when QQ Music renews another account', async () => {
    refresh.renew('stored_refresh_key', STORED_LOGIN);
    const other = STORED.replace('uin=123456789', 'uin=o0987654321');
    expect(await refreshQqMusicLogin(other)).toEqual({
      ok: false,
      error: 'QQ Music renewed the login for another account',
    });
  });

  it('is an error sentence, without secrets, when QQ Music cannot be reached', async () => {
    refresh.renew('stored_refresh_key', STORED_LOGIN);
    refresh.down();
    const down = await refreshQqMusicLogin(STORED);
    expect(down).toEqual({ ok: false, error: 'QQ Music answered HTTP 502' });
    for (const secret of SECRETS) expect(JSON.stringify(down)).not.toContain(secret);
  });
});
