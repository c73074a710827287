/**
 * Platform credentials never leave the server: every login route is driven through a successful login
 * (QR, cookie and SMS for the shared accounts, QR for a personal link) and its failures, and neither
 * any answer body nor any log line (pino at trace, captured) carries a stored cookie value.
 */
import { describe, expect, it, vi } from 'vitest';
import { cookieValues } from '../../shared/sources/http/cookies';
import { type Session, withAdminApp } from '../helpers/accounts';
import { useBilibiliLoginApi } from '../helpers/bilibili-login-api';
import { LISTENER, useNeteaseLoginApi } from '../helpers/netease-login-api';
import { useQqMusicLoginApi } from '../helpers/qq-music-login-api';
import type { TestApp } from '../helpers/test-app';

const logLines = vi.hoisted((): string[] => []);
vi.mock(import('pino'), async (importOriginal) =>
  (await import('../helpers/log-capture')).pinoAtTraceInto(logLines, await importOriginal()),
);
const SECRET = vi.hoisted(() => 'PinnedSecrets016');
vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) =>
  (await import('../helpers/weapi-pin')).weapiPinnedTo(SECRET, await importOriginal()),
);

const netease = useNeteaseLoginApi(SECRET);
const qq = useQqMusicLoginApi();
const bilibili = useBilibiliLoginApi();
let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

/** Every answer body of the test, as text. */
const bodies: string[] = [];
async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { cookie: admin.jar.header() ?? '' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await t.fetch(
    new Request(`http://bot.test${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  bodies.push(text);
  return JSON.parse(text);
}
const qrKey = async (path: string, platform?: string) =>
  ((await call('POST', path, platform ? { platform } : undefined)) as { key: string }).key;

describe('platform credentials in answers and logs', () => {
  it('never shows a stored cookie value', async () => {
    const statuses = () =>
      Promise.all(
        ['music_a', 'music_b', 'video_a', 'video_b', 'local'].map((p) =>
          call('GET', `/api/auth/status?platform=${p}`),
        ),
      );
    // Shared music_a by QR, then by cookie, then by SMS; each one replaces the last.
    netease.addAccount('secret_qr_music_u');
    const neteaseKey = await qrKey('/api/auth/qrcode', 'music_a');
    netease.scan(netease.lastUnikey());
    await call('GET', `/api/auth/qrcode/status?platform=music_a&key=${neteaseKey}`);
    netease.confirm(netease.lastUnikey(), 'secret_qr_music_u');
    expect(await call('GET', `/api/auth/qrcode/status?platform=music_a&key=${neteaseKey}`)).toEqual({
      status: 'confirmed',
    });
    await call('GET', `/api/auth/qrcode/status?platform=music_a&key=${neteaseKey}`);
    await statuses();
    netease.addAccount('secret_pasted_music_u');
    await call('POST', '/api/auth/cookie', {
      platform: 'music_a',
      cookie: 'MUSIC_U=secret_pasted_music_u; __csrf=secretcsrf',
    });
    await call('POST', '/api/auth/cookie', { platform: 'music_a', cookie: 'MUSIC_U=secret_refused_music_u' });
    netease.phone('13900000000', '2468', 'secret_sms_music_u');
    netease.addAccount('secret_sms_music_u');
    await call('POST', '/api/auth/sms/send', { phone: '13900000000' });
    await call('POST', '/api/auth/sms/verify', { phone: '13900000000', code: '1111' });
    expect(await call('POST', '/api/auth/sms/verify', { phone: '13900000000', code: '2468' })).toEqual({
      success: true,
    });
    await statuses();

    // Shared music_b and video_a by QR, then by cookie.
    const qqKey = await qrKey('/api/auth/qrcode', 'music_b');
    qq.confirm();
    expect(await call('GET', `/api/auth/qrcode/status?platform=music_b&key=${qqKey}`)).toEqual({
      status: 'confirmed',
    });
    const bilibiliKey = await qrKey('/api/auth/qrcode', 'video_a');
    bilibili.confirm('secret_qr_sessdata');
    expect(await call('GET', `/api/auth/qrcode/status?platform=video_a&key=${bilibiliKey}`)).toEqual({
      status: 'confirmed',
    });
    await statuses();
    qq.acceptKey('Q_H_L_secretpasted');
    await call('POST', '/api/auth/cookie', {
      platform: 'music_b',
      cookie: 'uin=1234567; qqmusic_key=Q_H_L_secretpasted',
    });
    bilibili.acceptSession('secret_pasted_sessdata');
    await call('POST', '/api/auth/cookie', {
      platform: 'video_a',
      cookie: 'SESSDATA=secret_pasted_sessdata',
    });
    await call('POST', '/api/auth/cookie', {
      platform: 'video_a',
      cookie: 'SESSDATA=secret_refused_sessdata',
    });
    await statuses();

    // A personal link.
    netease.addAccount('secret_personal_music_u', { ...LISTENER, nickname: 'Own' });
    const personalKey = await qrKey('/api/me/music/music_a/qrcode');
    netease.confirm(netease.lastUnikey(), 'secret_personal_music_u');
    expect(await call('GET', `/api/me/music/music_a/qrcode/status?key=${personalKey}`)).toEqual({
      status: 'confirmed',
    });
    await call('GET', '/api/me/music/music_a/status');
    await call('DELETE', '/api/me/music/music_a');

    const stored = [
      ...(await t.db.query.platformAccounts.findMany()).map((row) => row.credential),
      'MUSIC_U=secret_qr_music_u; MUSIC_U=secret_pasted_music_u; MUSIC_U=secret_sms_music_u',
      'MUSIC_U=secret_personal_music_u; MUSIC_U=secret_refused_music_u; SESSDATA=secret_refused_sessdata',
      'SESSDATA=secret_qr_sessdata; SESSDATA=secret_pasted_sessdata; qqmusic_key=Q_H_L_secretpasted',
    ];
    const secrets = new Set<string>();
    for (const credential of stored)
      for (const part of credential.split(';')) {
        const [name, value] = part.trim().split('=');
        if (name && value && /MUSIC_U|__csrf|SESSDATA|bili_jct|qqmusic_key|qm_keyst/.test(name))
          secrets.add(value);
      }
    expect(secrets.size).toBeGreaterThanOrEqual(9);
    expect(
      cookieValues((await t.db.query.platformAccounts.findMany()).map((r) => r.credential).join('; ')).get(
        'qqmusic_key',
      ),
    ).toBeDefined();
    expect(logLines.join('\n')).toContain('shared platform login stored');
    for (const secret of secrets) {
      expect(bodies.filter((b) => b.includes(secret))).toEqual([]);
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
