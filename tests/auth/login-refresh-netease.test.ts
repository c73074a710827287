/**
 * Renewing a stored NetEase Cloud Music login (`refresh` of the music_a login) against a stand-in for
 * `/eapi/login/token/refresh` (the desktop client's form): the renewed cookies replace their old values and the rest of the stored
 * cookie stays; a login NetEase no longer knows is 'expired'; a refusal or an unreachable NetEase is an
 * error sentence without the cookie in it.
 */
import { describe, expect, it } from 'vitest';
import { refreshNeteaseLogin } from '../../shared/sources/netease/netease-login-refresh';
import { useNeteaseRefreshApi } from '../helpers/netease-refresh-api';

const netease = useNeteaseRefreshApi();
const STORED = 'MUSIC_U=old_music_u; __csrf=oldcsrf; NMTID=00Ofixture-nmtid; os=pc';

describe('NetEase login refresh', () => {
  it('asks with the stored cookie and merges the renewed MUSIC_U and __csrf into it, keeping the others', async () => {
    netease.renew('old_music_u', 'new_music_u');
    const renewed = await refreshNeteaseLogin(STORED);
    expect(renewed).toEqual({
      ok: true,
      value: { credential: 'MUSIC_U=new_music_u; __csrf=csrf-new_music_u; NMTID=00Ofixture-nmtid; os=pc' },
    });
    // The desktop client's call: no data, the login and the device in its header, and the cookie's
    // CSRF token there too.
    expect(netease.requests).toHaveLength(1);
    expect(netease.requests[0]).toMatchObject({
      form: 'desktop',
      musicU: 'old_music_u',
      payload: { e_r: false },
    });
    expect(netease.requests[0]!.cookie).toContain('__csrf=oldcsrf');
  });

  it('answers expired for a login NetEase no longer knows (code 301), and for a cookie without MUSIC_U', async () => {
    expect(await refreshNeteaseLogin('MUSIC_U=forgotten_music_u; __csrf=x')).toEqual({
      ok: true,
      value: 'expired',
    });
    expect(await refreshNeteaseLogin('NMTID=only-a-device')).toEqual({ ok: true, value: 'expired' });
    expect(netease.requests).toHaveLength(1);
  });

  it('is an error sentence when NetEase refuses to renew (code 400, as for QR logins) or cannot be reached', async () => {
    netease.refuse('qr_music_u');
    const refused = await refreshNeteaseLogin('MUSIC_U=qr_music_u');
    expect(refused).toEqual({
      ok: false,
      error: 'NetEase Cloud Music refused to renew the login (code 400: 参数错误)',
    });

    netease.renew('old_music_u', 'new_music_u');
    netease.down();
    const down = await refreshNeteaseLogin(STORED);
    expect(down).toEqual({ ok: false, error: 'NetEase Cloud Music answered HTTP 503' });
    expect(JSON.stringify([refused, down])).not.toMatch(/music_u=|qr_music_u|old_music_u/i);
  });
});
