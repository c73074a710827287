/**
 * The shared music_b (QQ Music) and video_a (Bilibili) logins through /api/auth, against stand-ins for
 * their QR logins and account checks: each QR code walked through all four states, the confirmed login
 * stored and reported by the status, and pasted cookies checked before they are stored.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { platformAccounts } from '../../shared/db/schema';
import { cookieValues } from '../../shared/sources/http/cookies';
import { type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { useBilibiliLoginApi } from '../helpers/bilibili-login-api';
import { QQ_MUSIC_KEY, useQqMusicLoginApi } from '../helpers/qq-music-login-api';

const qq = useQqMusicLoginApi();
const bilibili = useBilibiliLoginApi();
let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

type QrPlatform = 'music_b' | 'video_a';
const start = (platform: QrPlatform) => admin.api.POST('/api/auth/qrcode', { body: { platform } });
const poll = async (platform: QrPlatform, key: string) =>
  (await admin.api.GET('/api/auth/qrcode/status', { params: { query: { key, platform } } })).data?.status;
const stored = async (platform: QrPlatform) =>
  (await t.db.query.platformAccounts.findFirst({ where: eq(platformAccounts.platform, platform) })) ??
  undefined;
const status = async (platform: QrPlatform) =>
  (await admin.api.GET('/api/auth/status', { params: { query: { platform } } })).data;

describe('music_b QR login', () => {
  it("shows Tencent's own code picture and walks waiting, scanned, confirmed into a music login", async () => {
    const started = await start('music_b');
    expect(started.response.status).toBe(200);
    expect(started.data?.qrImg).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(started.data?.qrUrl).toBe(started.data?.qrImg);
    const key = started.data!.key;

    expect(await poll('music_b', key)).toBe('waiting');
    qq.scan();
    expect(await poll('music_b', key)).toBe('scanned');
    qq.confirm();
    expect(await poll('music_b', key)).toBe('confirmed');
    expect(qq.asked).toEqual([
      'ptqrshow',
      'ptqrlogin',
      'ptqrlogin',
      'ptqrlogin',
      'check_sig',
      'authorize',
      'QQLogin',
      'GetLoginUserInfo',
      'GetHomepageHeader',
    ]);
    const login = cookieValues((await stored('music_b'))?.credential ?? '');
    expect(Object.fromEntries(login)).toMatchObject({ uin: '123456789', qqmusic_key: QQ_MUSIC_KEY });
    expect(await stored('music_b')).toMatchObject({ nickname: 'Fixture Listener' });
    expect(await poll('music_b', key)).toBe('confirmed');
    expect(await status('music_b')).toMatchObject({
      platform: 'music_b',
      loggedIn: true,
      nickname: 'Fixture Listener',
    });
  });

  it('answers expired when the code expires', async () => {
    const { data } = await start('music_b');
    qq.expire();
    expect(await poll('music_b', data!.key)).toBe('expired');
  });

  it('checks a pasted cookie: stored when QQ Music accepts it, 400 with the reason otherwise', async () => {
    qq.acceptKey('Q_H_L_pastedkey');
    const pasted = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_b', cookie: 'uin=o0987654321; qqmusic_key=Q_H_L_pastedkey' },
    });
    expect(pasted.data).toEqual({ success: true });
    expect((await stored('music_b'))?.credential).toBe('uin=o0987654321; qqmusic_key=Q_H_L_pastedkey');

    qq.acceptKey('Q_H_L_pastedkey', false);
    expect(await status('music_b')).toEqual({ platform: 'music_b', loggedIn: false });
    const dead = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_b', cookie: 'uin=o0987654321; qqmusic_key=Q_H_L_pastedkey' },
    });
    expect(dead.response.status).toBe(400);
    expect(dead.error?.error).toBe(
      'Not logged in: QQ Music does not accept this cookie: its login has expired or was logged out.',
    );
    const partial = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_b', cookie: 'uin=1' },
    });
    expect(partial.error?.error).toMatch(/^Not logged in: QQ Music needs the uin and qqmusic_key/);
  });
});

describe('video_a QR login', () => {
  it('draws the passport URL and walks waiting, scanned, confirmed with the cookies Bilibili sets', async () => {
    const started = await start('video_a');
    expect(started.data?.qrUrl).toMatch(
      /^https:\/\/account\.bilibili\.com\/h5\/account-h5\/auth\/scan-web\?/,
    );
    expect(started.data?.qrImg).toMatch(/^data:image\/png;base64,/);
    const key = started.data!.key;
    expect(await poll('video_a', key)).toBe('waiting');
    bilibili.scan();
    expect(await poll('video_a', key)).toBe('scanned');
    bilibili.confirm('fixture_sessdata_qr');
    expect(await poll('video_a', key)).toBe('confirmed');

    const login = cookieValues((await stored('video_a'))?.credential ?? '');
    expect(Object.fromEntries(login)).toEqual({
      SESSDATA: 'fixture_sessdata_qr',
      bili_jct: 'fixturejct',
      DedeUserID: '40000001',
      DedeUserID__ckMd5: 'fixtureckmd5',
      sid: 'fixturesid',
      // The poll's refresh token, kept to renew the login (bilibili-login-refresh.ts).
      ac_time_value: 'fixturerefreshtoken0001',
    });
    expect(await stored('video_a')).toMatchObject({
      nickname: 'Listener Nine',
      avatarUrl: 'https://i1.hdslb.com/bfs/face/fixtureface0001.jpg',
    });
    expect(await status('video_a')).toMatchObject({ loggedIn: true, nickname: 'Listener Nine' });
  });

  it('answers expired when the code expires', async () => {
    const { data } = await start('video_a');
    bilibili.expire();
    expect(await poll('video_a', data!.key)).toBe('expired');
  });

  it('checks a pasted cookie with nav; a login Bilibili no longer knows is refused and shows logged out', async () => {
    bilibili.acceptSession('pasted_sessdata');
    const pasted = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'video_a', cookie: 'SESSDATA=pasted_sessdata; bili_jct=x' },
    });
    expect(pasted.data).toEqual({ success: true });
    bilibili.acceptSession('pasted_sessdata', false);
    expect(await status('video_a')).toEqual({ platform: 'video_a', loggedIn: false });
    const dead = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'video_a', cookie: 'SESSDATA=pasted_sessdata' },
    });
    expect(dead.error?.error).toBe(
      'Not logged in: Bilibili does not accept this cookie: its login has expired or was logged out.',
    );
  });
});
