/**
 * The shared music_c (Kugou Music) login through /api/auth, against the msw stand-in for Kugou's login
 * host and gateway: a QR code walked through waiting, scanned and confirmed into a stored login that
 * the status then reports, an expired code, and a pasted cookie checked with Kugou before it is stored.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { platformAccounts } from '../../shared/db/schema';
import { type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { refusedWith, useKugouApi } from '../helpers/kugou-api';

const kugou = useKugouApi();
let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const QR_STATUS = '/v2/get_userinfo_qrcode';
const qrAnswer = (data: object) => ({ status: 1, error_code: 0, data });
const COOKIE = 'token=fixturetoken0001; userid=123456789; KUGOU_API_MID=4242; dfid=fixturedfid';

const poll = async (key: string) =>
  (await admin.api.GET('/api/auth/qrcode/status', { params: { query: { key, platform: 'music_c' } } })).data
    ?.status;
const stored = async () =>
  (await t.db.query.platformAccounts.findFirst({ where: eq(platformAccounts.platform, 'music_c') })) ??
  undefined;
const status = async () =>
  (await admin.api.GET('/api/auth/status', { params: { query: { platform: 'music_c' } } })).data;

describe('music_c QR login', () => {
  it("walks waiting, scanned and confirmed, storing Kugou's token with the code's device", async () => {
    const started = await admin.api.POST('/api/auth/qrcode', { body: { platform: 'music_c' } });
    expect(started.response.status).toBe(200);
    expect(started.data?.qrUrl).toBe(
      'https://h5.kugou.com/apps/loginQRCode/html/index.html?qrcode=fixtureqrkey0001',
    );
    expect(started.data?.qrImg).toMatch(/^data:image\/png;base64,/);
    const key = started.data!.key;

    expect(await poll(key)).toBe('waiting');
    kugou.answer(QR_STATUS, qrAnswer({ status: 2, nickname: 'Fixture Listener' }));
    expect(await poll(key)).toBe('scanned');
    kugou.answer(
      QR_STATUS,
      qrAnswer({
        status: 4,
        token: 'qrtoken0001',
        userid: 123456789,
        nickname: 'Fixture Listener',
        pic: 'http://imge.kugou.com/a.jpg',
      }),
    );
    expect(await poll(key)).toBe('confirmed');
    // Every poll speaks for the device the code was made on, and the login is stored with it.
    const { mid, dfid } = kugou.to('/v2/qrcode')[0]!.query;
    expect(
      kugou.to(QR_STATUS).every((r) => r.query.qrcode === 'fixtureqrkey0001' && r.query.mid === mid),
    ).toBe(true);
    expect(await stored()).toMatchObject({
      credential: `token=qrtoken0001; userid=123456789; KUGOU_API_MID=${mid}; dfid=${dfid}`,
      nickname: 'Fixture Listener',
      avatarUrl: 'http://imge.kugou.com/a.jpg',
    });
    expect(await status()).toMatchObject({
      platform: 'music_c',
      loggedIn: true,
      nickname: 'Fixture Listener',
    });
  });

  it('answers expired when the code expires, storing nothing new', async () => {
    const before = await stored();
    const { data } = await admin.api.POST('/api/auth/qrcode', { body: { platform: 'music_c' } });
    kugou.answer(QR_STATUS, qrAnswer({ status: 0 }));
    expect(await poll(data!.key)).toBe('expired');
    expect(await stored()).toEqual(before);
  });
});

describe('music_c cookie login', () => {
  it('stores a cookie Kugou accepts, and refuses one it does not with 400 and the reason', async () => {
    const pasted = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_c', cookie: ` ${COOKIE}; other=1 ` },
    });
    expect(pasted.data).toEqual({ success: true });
    expect(await stored()).toMatchObject({ credential: COOKIE, nickname: 'Fixture Listener' });
    expect(kugou.to('/v3/get_my_info').at(-1)?.query).toMatchObject({
      token: 'fixturetoken0001',
      mid: '4242',
    });

    kugou.answer('/v3/get_my_info', refusedWith(20018));
    const dead = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_c', cookie: 'token=expiredtoken; userid=5' },
    });
    expect(dead.response.status).toBe(400);
    expect(dead.error?.error).toBe(
      'Not logged in: Kugou Music did not accept this login (expired or signed out).',
    );
    const partial = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_c', cookie: 'kg_mid=1' },
    });
    expect(partial.error?.error).toBe(
      'Not logged in: a Kugou Music login cookie needs its token and userid.',
    );
    // The refused cookies left the stored login as it was.
    expect((await stored())?.credential).toBe(COOKIE);
  });
});
