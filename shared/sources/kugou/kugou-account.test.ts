/**
 * The `music_c` login side against an msw stand-in for Kugou Music: who the stored login is (an
 * expired token is "logged out", not an error), personal FM (and what it gives after a song that
 * played), the QR login through all four states and the pasted-cookie check, plus the stored login
 * and the platform module's login factory.
 */
import { HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedWith, useKugouApi } from '../../../tests/helpers/kugou-api';
import { migrateDb, openDb } from '../../db/client';
import { platformAccounts } from '../../db/schema';
import { KugouCatalog } from './kugou-catalog';
import { KugouClient } from './kugou-client';
import { type KugouLogin, parseKugouCookie, storedKugouLogin } from './kugou-login';
import { KugouCookieLogin, KugouQrLogin, kugouLogin } from './kugou-platform-login';
import { paramsKey } from './kugou-signing';

const api = useKugouApi();
let login: KugouLogin | undefined;
const client = new KugouClient(async () => login);
const catalog = new KugouCatalog(client);
const COOKIE = 'token=fixturetoken0001; userid=123456789; KUGOU_API_MID=4242; dfid=fixturedfid';
const PERSONAL = 'token=personaltoken; userid=987654321';
const QR_STATUS = '/v2/get_userinfo_qrcode';
const qrAnswer = (data: object) => ({ status: 1, error_code: 0, data });

describe('Kugou logins', () => {
  it('reads token, account and device from a cookie, and refuses one without them', () => {
    expect(parseKugouCookie(COOKIE)).toEqual({
      token: 'fixturetoken0001',
      userid: '123456789',
      mid: '4242',
      dfid: 'fixturedfid',
    });
    const bare = parseKugouCookie('token=t; userid=5');
    expect(bare).toMatchObject({ token: 't', userid: '5', dfid: '-' });
    // Without a device of its own, the same account gets the same device on every start.
    expect(bare!.mid).toBe(parseKugouCookie('userid=5; token=t')!.mid);
    expect(parseKugouCookie('token=t')).toBeUndefined();
    expect(parseKugouCookie('userid=5')).toBeUndefined();
    expect(parseKugouCookie('token=t; userid=0')).toBeUndefined();
  });
});

describe('Kugou account status', () => {
  it('names the account from the user centre, the token encrypted for Kugou', async () => {
    login = parseKugouCookie(COOKIE);
    expect(await catalog.accountStatus()).toEqual({
      ok: true,
      value: {
        loggedIn: true,
        nickname: 'Fixture Listener',
        avatarUrl: 'http://imge.kugou.com/kugouicon/165/20240101/fixture-listener.jpg',
      },
    });
    const [asked] = api.requests;
    expect(asked).toMatchObject({
      path: '/v3/get_my_info',
      router: 'usercenter.kugou.com',
      query: { plat: '1' },
    });
    expect(asked!.body).toMatchObject({
      usertype: 1,
      userid: 123456789,
      p: expect.stringMatching(/^[0-9A-F]{256}$/),
    });
    // Not the token in the clear.
    expect(JSON.stringify(asked!.body)).not.toContain('fixturetoken0001');
  });

  it('is logged out without a stored login, asking nothing', async () => {
    login = undefined;
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    expect(api.requests).toHaveLength(0);
  });

  it('is logged out, not failed, when Kugou no longer accepts the token', async () => {
    login = parseKugouCookie(COOKIE);
    api.answer('/v3/get_my_info', refusedWith(20018));
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
  });

  it('passes other failures on as sentences', async () => {
    login = parseKugouCookie(COOKIE);
    api.answer('/v3/get_my_info', () => new HttpResponse('down', { status: 503 }));
    expect(await catalog.accountStatus()).toEqual({ ok: false, error: 'Kugou Music answered HTTP 503' });
  });
});

describe('Kugou personal FM', () => {
  const drift = {
    id: 'F1B2C3D4E5F60718293A4B5C6D7E8F95',
    name: 'Fixture Drift',
    artist: 'Fixture Radio Band',
    album: 'Fixture Airwaves',
    duration: 201,
    coverUrl: 'http://imge.kugou.com/stdmusic/400/20240105/fixture-drift.jpg',
    platform: 'music_c',
  };

  it("plays the shared login's guess-you-like batch", async () => {
    login = parseKugouCookie(COOKIE);
    expect(await catalog.personalFm()).toEqual({ ok: true, value: [drift] });
    const [asked] = api.requests;
    expect(asked).toMatchObject({ path: '/v2/personal_recommend', router: 'persnfm.service.kugou.com' });
    const body = asked!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      userid: 123456789,
      kguid: 123456789,
      token: 'fixturetoken0001',
      mid: '4242',
      mode: 'normal',
    });
    expect(body.key).toBe(paramsKey(body.clienttime as number));
  });

  it("uses the caller's own linked account when given", async () => {
    login = parseKugouCookie(COOKIE);
    await catalog.personalFm(PERSONAL);
    expect(api.requests[0]!.query).toMatchObject({ token: 'personaltoken', userid: '987654321' });
  });

  it('needs a login, and says when the token expired', async () => {
    login = undefined;
    expect(await catalog.personalFm()).toEqual({
      ok: false,
      error: 'personal FM needs a Kugou Music login; log in first',
    });
    expect(api.requests).toHaveLength(0);
    login = parseKugouCookie(COOKIE);
    api.answer('/v2/personal_recommend', refusedWith(20018));
    expect(await catalog.personalFm()).toEqual({
      ok: false,
      error: 'the Kugou Music login has expired; log in again',
    });
  });
});

describe('Kugou songs like one that played', () => {
  const harbour = {
    id: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
    name: 'Fixture Harbour',
    artist: 'Fixture Band',
    album: 'Fixture Shores',
    duration: 214,
    coverUrl: 'http://imge.kugou.com/stdmusic/400/20240101/fixture-harbour.jpg',
    platform: 'music_c' as const,
  };

  it('asks the FM what follows the song played through, and leaves the song out', async () => {
    login = parseKugouCookie(COOKIE);
    const result = await catalog.relatedSongs(harbour, 10);
    const [asked] = api.requests;
    expect(asked).toMatchObject({ path: '/v2/personal_recommend', router: 'persnfm.service.kugou.com' });
    expect(asked!.body).toMatchObject({
      hash: harbour.id,
      is_overplay: 1,
      song_pool_id: 0,
      action: 'play',
      userid: 123456789,
      token: 'fixturetoken0001',
    });
    expect(result).toEqual({
      ok: true,
      value: [
        {
          id: 'E1B2C3D4E5F60718293A4B5C6D7E8F96',
          name: 'Fixture Lighthouse',
          artist: 'Fixture Band',
          album: 'Fixture Shores',
          duration: 198,
          coverUrl: 'http://imge.kugou.com/stdmusic/400/20240110/fixture-lighthouse.jpg',
          platform: 'music_c',
        },
        expect.objectContaining({
          id: 'E2B2C3D4E5F60718293A4B5C6D7E8F97',
          name: 'Fixture Undertow',
          vip: true,
        }),
        expect.objectContaining({ id: 'E3B2C3D4E5F60718293A4B5C6D7E8F98', name: 'Fixture Pier Lights' }),
      ],
    });
    const two = await catalog.relatedSongs(harbour, 2);
    expect(two.ok && two.value.map((s) => s.name)).toEqual(['Fixture Lighthouse', 'Fixture Undertow']);
  });

  it('needs a login, and a refusal is an error', async () => {
    login = undefined;
    expect(await catalog.relatedSongs(harbour, 5)).toEqual({
      ok: false,
      error: 'songs like the one that played needs a Kugou Music login; log in first',
    });
    expect(api.requests).toHaveLength(0);
    login = parseKugouCookie(COOKIE);
    api.answer('/v2/personal_recommend', refusedWith(20018));
    expect(await catalog.relatedSongs(harbour, 5)).toEqual({
      ok: false,
      error: 'the Kugou Music login has expired; log in again',
    });
    api.answer('/v2/personal_recommend', () => new HttpResponse('busy', { status: 503 }));
    expect(await catalog.relatedSongs(harbour, 5)).toEqual({
      ok: false,
      error: 'Kugou Music answered HTTP 503',
    });
  });
});

describe('Kugou QR login', () => {
  const qr = new KugouQrLogin(client);

  it('creates a key on the login host, web-signed, and the page the code opens', async () => {
    login = parseKugouCookie(COOKIE);
    const started = await qr.start();
    expect(started).toEqual({
      ok: true,
      value: {
        qrUrl: 'https://h5.kugou.com/apps/loginQRCode/html/index.html?qrcode=fixtureqrkey0001',
        state: {
          key: 'fixtureqrkey0001',
          mid: expect.stringMatching(/^\d+$/),
          dfid: expect.stringMatching(/^[0-9A-Z]{24}$/),
        },
      },
    });
    const [asked] = api.requests;
    expect(asked).toMatchObject({ origin: 'https://login-user.kugou.com', path: '/v2/qrcode' });
    expect(asked!.query).toMatchObject({ appid: '1001', type: '1', plat: '4', srcappid: '2919' });
    // A new device, not the stored login.
    expect(asked!.query).not.toHaveProperty('token');
  });

  it('maps the four states, confirming with the credential to store and the profile', async () => {
    const started = await qr.start();
    const state = started.ok ? started.value.state : {};
    expect(await qr.poll(state)).toEqual({ ok: true, value: { status: 'waiting' } });
    api.answer(QR_STATUS, qrAnswer({ status: 2, nickname: 'Fixture Listener' }));
    expect(await qr.poll(state)).toEqual({ ok: true, value: { status: 'scanned' } });
    api.answer(QR_STATUS, qrAnswer({ status: 0 }));
    expect(await qr.poll(state)).toEqual({ ok: true, value: { status: 'expired' } });
    api.answer(
      QR_STATUS,
      qrAnswer({
        status: 4,
        token: 'newtoken0001',
        userid: 123456789,
        nickname: 'Fixture Listener',
        pic: 'http://imge.kugou.com/a.jpg',
      }),
    );
    expect(await qr.poll(state)).toEqual({
      ok: true,
      value: {
        status: 'confirmed',
        credential: `token=newtoken0001; userid=123456789; KUGOU_API_MID=${state.mid}; dfid=${state.dfid}`,
        profile: { nickname: 'Fixture Listener', avatarUrl: 'http://imge.kugou.com/a.jpg' },
      },
    });
    const polls = api.to(QR_STATUS);
    expect(polls.every((r) => r.query.qrcode === 'fixtureqrkey0001' && r.query.mid === state.mid)).toBe(true);
    expect(polls[0]!.query).toMatchObject({ appid: '1005', plat: '4', srcappid: '2919' });
  });

  it('refuses an incomplete state, an unknown status and a confirmation without a token', async () => {
    expect(await qr.poll({ key: 'k' })).toEqual({
      ok: false,
      error: 'this Kugou Music QR login is incomplete; start again',
    });
    const state = { key: 'k', mid: '1', dfid: '-' };
    api.answer(QR_STATUS, qrAnswer({ status: 7 }));
    expect(await qr.poll(state)).toEqual({
      ok: false,
      error: 'Kugou Music answered the QR login with an unknown state (7)',
    });
    api.answer(QR_STATUS, qrAnswer({ status: 4 }));
    expect(await qr.poll(state)).toEqual({
      ok: false,
      error: 'Kugou Music confirmed the QR login but sent no token',
    });
  });
});

describe('Kugou cookie login', () => {
  const cookie = new KugouCookieLogin(client);

  it('accepts a cookie Kugou knows, storing it normalized', async () => {
    expect(await cookie.check(` ${COOKIE}; other=1 `)).toEqual({
      ok: true,
      value: {
        credential: 'token=fixturetoken0001; userid=123456789; KUGOU_API_MID=4242; dfid=fixturedfid',
        profile: {
          nickname: 'Fixture Listener',
          avatarUrl: 'http://imge.kugou.com/kugouicon/165/20240101/fixture-listener.jpg',
        },
      },
    });
    expect(api.requests[0]!.query).toMatchObject({ token: 'fixturetoken0001', mid: '4242' });
  });

  it('refuses a cookie Kugou does not accept, or one without token and userid', async () => {
    api.answer('/v3/get_my_info', refusedWith(20018));
    expect(await cookie.check(COOKIE)).toEqual({
      ok: false,
      error: 'Kugou Music did not accept this login (expired or signed out)',
    });
    expect(await cookie.check('kg_mid=abc')).toEqual({
      ok: false,
      error: 'a Kugou Music login cookie needs its token and userid',
    });
  });
});

describe('the stored Kugou login', () => {
  const db = openDb({ url: ':memory:' });
  beforeAll(() => migrateDb(db));
  afterAll(() => db.$client.close());

  it('reads the music_c row, and the factory logs in with it', async () => {
    const lookup = storedKugouLogin(db);
    expect(await lookup()).toBeUndefined();
    await db
      .insert(platformAccounts)
      .values({ platform: 'music_c', credential: COOKIE, updatedAt: new Date() });
    expect(await lookup()).toMatchObject({ token: 'fixturetoken0001', userid: '123456789' });
    const platformLogin = kugouLogin(db);
    expect(platformLogin.qr).toBeInstanceOf(KugouQrLogin);
    expect((await platformLogin.cookie.check(PERSONAL)).ok).toBe(true);
  });
});
