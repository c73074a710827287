/**
 * The shared music_a login through /api/auth, against a stand-in for NetEase's login endpoints: the
 * QR code walked through all four states, the attempt's lifetime, cookie and SMS logins, the status
 * of a stored, missing and expired login, and who may do what.
 */
import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { platformAccounts, qrLogins } from '../../shared/db/schema';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { useMswServer } from '../helpers/msw-server';
import { neteaseFixture } from '../helpers/netease-api';
import { LISTENER, useNeteaseLoginApi } from '../helpers/netease-login-api';

const SECRET = vi.hoisted(() => 'PinnedLoginKey16');
vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) =>
  (await import('../helpers/weapi-pin')).weapiPinnedTo(SECRET, await importOriginal()),
);

/** The account-check path answers HTTP 500 while this is set: NetEase cannot be reached. */
let neteaseDown = false;
/** The cellphone login is refused with NetEase's behaviour-captcha wall (code 8821) while this is set. */
let captchaWall = false;
useMswServer(
  http.post('https://music.163.com/weapi/w/nuser/account/get', () =>
    neteaseDown ? new HttpResponse('busy', { status: 500 }) : undefined,
  ),
  http.post('https://music.163.com/weapi/w/login/cellphone', () =>
    captchaWall ? HttpResponse.json(neteaseFixture('cellphone-needs-captcha')) : undefined,
  ),
);

const netease = useNeteaseLoginApi(SECRET);

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const storedLogin = async () =>
  t.db.query.platformAccounts.findFirst({ where: eq(platformAccounts.platform, 'music_a') });
const poll = (session: Session, key: string, platform: 'music_a' | 'music_b' = 'music_a') =>
  session.api.GET('/api/auth/qrcode/status', { params: { query: { key, platform } } });
const status = (session: Session) =>
  session.api.GET('/api/auth/status', { params: { query: { platform: 'music_a' } } });

describe('music_a QR login', () => {
  it('hands out a code drawn from the NetEase login URL and walks waiting, scanned, confirmed', async () => {
    const started = await admin.api.POST('/api/auth/qrcode', { body: { platform: 'music_a' } });
    expect(started.response.status).toBe(200);
    const unikey = netease.lastUnikey();
    expect(started.data).toMatchObject({ qrUrl: `https://music.163.com/login?codekey=${unikey}` });
    const png = Buffer.from(started.data!.qrImg.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(started.data!.key).toMatch(/^[\w-]{32}$/);
    expect(started.data!.key).not.toContain(unikey);
    const key = started.data!.key;

    expect((await poll(admin, key)).data).toEqual({ status: 'waiting' });
    netease.scan(unikey);
    expect((await poll(admin, key)).data).toEqual({ status: 'scanned' });
    netease.addAccount('qr_login_music_u');
    netease.confirm(unikey, 'qr_login_music_u');
    const confirmed = await poll(admin, key);
    expect(confirmed.error).toBeUndefined();
    expect(confirmed.data).toEqual({ status: 'confirmed' });
    expect(netease.requests.filter((r) => r.path === '/eapi/login/qrcode/client/login')).toHaveLength(3);
    // The desktop client's QR login (type 3), the form that does not freeze logins.
    expect(netease.requests.at(-2)).toMatchObject({ form: 'desktop', payload: { key: unikey, type: 3 } });

    const stored = await storedLogin();
    expect(stored).toMatchObject({ nickname: LISTENER.nickname, avatarUrl: LISTENER.avatarUrl });
    expect(stored?.credential).toContain('MUSIC_U=qr_login_music_u');
    expect(stored?.credential).toContain('__csrf=');
    expect(stored?.credential).not.toMatch(/Path|HTTPOnly|Max-Age/i);

    // Confirmed is final: a later poll answers from the attempt without asking NetEase again.
    const asked = netease.requests.length;
    expect((await poll(admin, key)).data).toEqual({ status: 'confirmed' });
    expect(netease.requests).toHaveLength(asked);

    expect((await status(admin)).data).toEqual({
      platform: 'music_a',
      loggedIn: true,
      nickname: LISTENER.nickname,
      avatarUrl: LISTENER.avatarUrl,
    });
  });

  it('answers expired when NetEase expires the code, and stays expired', async () => {
    const { data } = await admin.api.POST('/api/auth/qrcode', { body: { platform: 'music_a' } });
    netease.expire(netease.lastUnikey());
    expect((await poll(admin, data!.key)).data).toEqual({ status: 'expired' });
    const asked = netease.requests.length;
    expect((await poll(admin, data!.key)).data).toEqual({ status: 'expired' });
    expect(netease.requests).toHaveLength(asked);
  });

  it('expires an attempt older than five minutes without asking NetEase', async () => {
    const { data } = await admin.api.POST('/api/auth/qrcode', { body: { platform: 'music_a' } });
    await t.db
      .update(qrLogins)
      .set({ createdAt: new Date(Date.now() - 5 * 60_000 - 1000) })
      .where(eq(qrLogins.key, data!.key));
    const asked = netease.requests.length;
    expect((await poll(admin, data!.key)).data).toEqual({ status: 'expired' });
    expect(netease.requests).toHaveLength(asked);
  });

  it('answers 404 for an unknown key and for a key of another platform', async () => {
    const { data } = await admin.api.POST('/api/auth/qrcode', { body: { platform: 'music_a' } });
    expect((await poll(admin, 'no-such-key')).response.status).toBe(404);
    expect((await poll(admin, data!.key, 'music_b')).response.status).toBe(404);
  });

  it('answers 400 for a platform without QR login', async () => {
    const youtube = await admin.api.POST('/api/auth/qrcode', { body: { platform: 'video_b' as 'music_a' } });
    expect(youtube.response.status).toBe(400);
    expect(youtube.error?.error).toContain('platform must be one of music_a, music_b, video_a, music_c');
  });
});

describe('GET /api/auth/status for music_a', () => {
  it('says logged out without a stored login and with one NetEase no longer accepts, never 500', async () => {
    await t.db.delete(platformAccounts).where(eq(platformAccounts.platform, 'music_a'));
    expect((await status(admin)).data).toEqual({ platform: 'music_a', loggedIn: false });
    await t.db
      .insert(platformAccounts)
      .values({ platform: 'music_a', credential: 'MUSIC_U=expired_login', updatedAt: new Date() });
    expect((await status(admin)).data).toEqual({ platform: 'music_a', loggedIn: false });
  });

  it('answers 502 when NetEase cannot be reached', async () => {
    neteaseDown = true;
    try {
      const down = await status(admin);
      expect(down.response.status).toBe(502);
      expect(down.error?.error).toMatch(/^music_a: NetEase Cloud Music answered HTTP 500/);
    } finally {
      neteaseDown = false;
    }
  });
});

describe('music_a cookie login', () => {
  it('checks a pasted cookie with NetEase and stores it with the account it names', async () => {
    netease.addAccount('pasted_music_u', { ...LISTENER, nickname: 'Pasted Listener' });
    const { data, response } = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_a', cookie: '  MUSIC_U=pasted_music_u; __csrf=pastedcsrf  ' },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ success: true });
    expect(await storedLogin()).toMatchObject({
      credential: 'MUSIC_U=pasted_music_u; __csrf=pastedcsrf',
      nickname: 'Pasted Listener',
    });
    expect(netease.requests.at(-1)?.musicU).toBe('pasted_music_u');
    expect(netease.requests.at(-1)?.cookie).toContain('__csrf=pastedcsrf');
  });

  it('refuses with 400 and the reason a cookie NetEase does not accept, and one without MUSIC_U', async () => {
    const before = await storedLogin();
    const dead = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_a', cookie: 'MUSIC_U=nobody_knows_this' },
    });
    expect(dead.response.status).toBe(400);
    expect(dead.error?.error).toBe(
      'Not logged in: NetEase Cloud Music does not accept this cookie: its login has expired or was logged out.',
    );
    const noLogin = await admin.api.POST('/api/auth/cookie', {
      body: { platform: 'music_a', cookie: 'NMTID=x' },
    });
    expect(noLogin.error?.error).toBe(
      'Not logged in: NetEase Cloud Music needs the MUSIC_U cookie of a logged-in account.',
    );
    expect(await storedLogin()).toEqual(before);
  });

  it('refuses platforms that take no cookie with 400', async () => {
    for (const platform of ['video_b', 'library_a'] as const) {
      const res = await admin.api.POST('/api/auth/cookie', { body: { platform, cookie: 'a=b' } });
      expect(res.response.status).toBe(400);
      expect(res.error?.error).toBe(`${platform} does not log in with a cookie`);
    }
  });
});

describe('music_a SMS login', () => {
  it('texts a code to the phone and logs in with it', async () => {
    netease.phone('13800000000', '4711', 'sms_music_u');
    netease.addAccount('sms_music_u', { ...LISTENER, nickname: 'Texted Listener' });
    const sent = await admin.api.POST('/api/auth/sms/send', { body: { phone: '13800000000' } });
    expect(sent.data).toEqual({ success: true });
    expect(netease.requests.at(-1)).toMatchObject({
      path: '/weapi/sms/captcha/sent',
      payload: { ctcode: '86', secrete: 'music_middleuser_pclogin', cellphone: '13800000000' },
    });

    const wrong = await admin.api.POST('/api/auth/sms/verify', {
      body: { phone: '13800000000', code: '0000' },
    });
    expect(wrong.response.status).toBe(400);
    expect(wrong.error?.error).toBe('music_a: NetEase Cloud Music refused the code (code 503: 验证码错误)');

    const right = await admin.api.POST('/api/auth/sms/verify', {
      body: { phone: '13800000000', code: '4711' },
    });
    expect(right.data).toEqual({ success: true });
    expect(netease.requests.find((r) => r.path === '/weapi/w/login/cellphone')?.payload).toMatchObject({
      type: '1',
      https: 'true',
      phone: '13800000000',
      countrycode: '86',
      captcha: '0000',
      remember: 'true',
      secureCaptcha: '',
    });
    expect(await storedLogin()).toMatchObject({ nickname: 'Texted Listener' });
    expect((await storedLogin())?.credential).toContain('MUSIC_U=sms_music_u');
  });

  it('answers 502 in plain words when NetEase refuses SMS logins (code 8821), pointing to the QR code', async () => {
    netease.phone('13800000001', '4712', 'walled_music_u');
    const before = await storedLogin();
    captchaWall = true;
    const walled = await admin.api.POST('/api/auth/sms/verify', {
      body: { phone: '13800000001', code: '4712' },
    });
    captchaWall = false;
    expect(walled.response.status).toBe(502);
    expect(walled.error).toMatchObject({
      error:
        'music_a: NetEase Cloud Music refuses SMS login for now: it wants a behaviour captcha (code 8821) that this server cannot show; log in with the QR code instead',
    });
    expect(await storedLogin()).toEqual(before);
  });

  it('answers 502 when NetEase will not text the code, 400 for a malformed phone', async () => {
    const refused = await admin.api.POST('/api/auth/sms/send', { body: { phone: '19900000000' } });
    expect(refused.response.status).toBe(502);
    expect(refused.error?.error).toBe(
      'music_a: NetEase Cloud Music refused to send the code (code 400: 手机号格式错误)',
    );
    const malformed = await admin.api.POST('/api/auth/sms/send', { body: { phone: '+86 138' } });
    expect(malformed.response.status).toBe(400);
  });
});

describe('who may log platforms in', () => {
  it('lets members without platform.auth read the status but not log in; refuses guests', async () => {
    const member = await createMember(t, admin, { capabilities: ['player.control'], bots: [] });
    expect((await status(member)).response.status).toBe(200);
    const qr = await member.api.POST('/api/auth/qrcode', { body: { platform: 'music_a' } });
    expect(qr.response.status).toBe(403);
    const cookie = await member.api.POST('/api/auth/cookie', {
      body: { platform: 'music_a', cookie: 'MUSIC_U=x' },
    });
    expect(cookie.response.status).toBe(403);
    const sms = await member.api.POST('/api/auth/sms/send', { body: { phone: '13800000000' } });
    expect(sms.response.status).toBe(403);

    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    const guestStatus = await guest.api.GET('/api/auth/status', {
      params: { query: { platform: 'music_a' } },
    });
    expect(guestStatus.response.status).toBe(403);
    const guestPoll = await guest.api.GET('/api/auth/qrcode/status', {
      params: { query: { key: 'k', platform: 'music_a' } },
    });
    expect(guestPoll.response.status).toBe(403);
  });
});
