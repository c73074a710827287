/**
 * No answer body, header or log line ever carries a stored secret (issue #16). A whole life of the
 * service runs with pino at trace, captured, and every answer scanned (scanned-client.ts) for every
 * secret it has seen: account passwords, API keys (from the one answer that hands each out),
 * session ids (outside their own Set-Cookie), the SERVICE_TOKEN, the Spotify client secret and the
 * Jellyfin password of the settings, and the platform cookies stored by every login route: QR, cookie
 * and SMS for the shared accounts, QR for a personal link, successful and refused. The platforms are
 * msw stand-ins; weapi's secret is pinned so the NetEase stand-in can read the requests.
 */
import { describe, expect, it, vi } from 'vitest';
import { SERVICE_TOKEN_HEADER } from '../../shared/service-headers';
import { cookieValues } from '../../shared/sources/http/cookies';
import { PASSWORD, type Session, withAdminApp } from '../../testkit/accounts';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { useBilibiliLoginApi } from '../helpers/bilibili-login-api';
import { LISTENER, useNeteaseLoginApi } from '../helpers/netease-login-api';
import { useQqMusicLoginApi } from '../helpers/qq-music-login-api';
import { type ScannedClients, scannedClients } from './scanned-client';
import { SecretScanner } from './secret-scan';
import { recordTally } from './tally';

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
const scanner = new SecretScanner(true);
let t: TestApp;
let admin: Session;
let clients: ScannedClients;
withAdminApp((app, session) => {
  t = app;
  admin = session;
  clients = scannedClients(t, scanner);
  scanner.register('the test password', PASSWORD);
  scanner.register('SERVICE_TOKEN', t.config.serviceToken);
  scanner.register('the admin session', admin.jar.get('tsmb_session'));
});

/** A call as the admin's browser, through the scan; answers the parsed body. */
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await clients.send(
    new Request(`${TEST_ORIGIN}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    }),
    admin.jar,
  );
  return response.status === 204 ? undefined : ((await response.json()) as unknown);
}
const qrKey = async (path: string, platform?: string) =>
  ((await call('POST', path, platform ? { platform } : undefined)) as { key: string }).key;

describe('stored secrets in answers, headers and logs', () => {
  it('never show an account password, API key, session id or the service token', async () => {
    const memberPassword = 'member password that is secret';
    scanner.register('a member password', memberPassword);
    const member = (await call('POST', '/api/users', { username: 'keeper', password: memberPassword })) as {
      id: string;
    };
    const browser = clients.browser();
    await browser.api.POST('/api/session/login', { body: { username: 'keeper', password: memberPassword } });
    await browser.api.POST('/api/session/login', {
      body: { username: 'keeper', password: 'a wrong password' },
    });
    const key = await browser.api.POST('/api/keys', { body: { name: 'scanned key' } });
    await browser.api.GET('/api/keys');
    await call('GET', '/api/keys?all=1');
    const withKey = clients.withHeaders({ authorization: `Bearer ${key.data!.rawKey}` });
    await withKey.GET('/api/session/me');
    await withKey.GET('/api/bot');
    await clients.withHeaders({ 'x-api-key': `${key.data!.rawKey}x` }).GET('/api/bot');
    const resetPassword = 'a reset password that is secret';
    scanner.register('a reset password', resetPassword);
    await call('POST', `/api/users/${member.id}/reset-password`, { newPassword: resetPassword });
    await browser.api.POST('/api/session/login', { body: { username: 'keeper', password: resetPassword } });
    const changedPassword = 'a changed password that is secret';
    scanner.register('a changed password', changedPassword);
    await browser.api.POST('/api/session/change-password', {
      body: { currentPassword: resetPassword, newPassword: changedPassword },
    });
    await call('POST', '/api/bot/settings', { guestMode: { enabled: true } });
    await clients.browser().api.POST('/api/session/guest');
    // The chat service's token, right and wrong.
    await call('GET', '/api/bot', undefined, { [SERVICE_TOKEN_HEADER]: t.config.serviceToken });
    await call('GET', '/api/bot', undefined, { [SERVICE_TOKEN_HEADER]: `${t.config.serviceToken}0` });
    await call('GET', '/api/audit');
    await browser.api.POST('/api/session/logout');
    expect(scanner.findings).toEqual([]);
  });

  it('never show the Spotify client secret or the Jellyfin password of the settings', async () => {
    const clientSecret = 'spotify-client-secret-value';
    const jellyfinPassword = 'jellyfin-password-value';
    scanner.register('the Spotify client secret', clientSecret);
    scanner.register('the Jellyfin password', jellyfinPassword);
    const saved = await call('POST', '/api/bot/settings', {
      spotify: { enabled: true, clientId: 'spotify-client-id', clientSecret },
      jellyfin: {
        serverUrl: 'http://127.0.0.1:9',
        authMode: 'password',
        username: 'j',
        password: jellyfinPassword,
      },
    });
    expect(saved).toMatchObject({ spotify: { hasClientSecret: true }, jellyfin: { hasPassword: true } });
    await call('GET', '/api/bot/settings');
    await call('GET', '/api/spotify/status');
    await call('GET', '/api/spotify/login');
    await call('POST', '/api/auth/jellyfin/test', {});
    expect(scanner.findings).toEqual([]);
  });

  it('never show a stored platform cookie', async () => {
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
    let platformSecrets = 0;
    for (const credential of stored)
      for (const [name, value] of cookieValues(credential))
        if (/MUSIC_U|__csrf|SESSDATA|bili_jct|qqmusic_key|qm_keyst/.test(name)) {
          scanner.register(`the platform cookie ${name}`, value);
          platformSecrets++;
        }
    expect(platformSecrets).toBeGreaterThanOrEqual(9);
    expect(
      cookieValues((await t.db.query.platformAccounts.findMany()).map((r) => r.credential).join('; ')).get(
        'qqmusic_key',
      ),
    ).toBeDefined();
    expect(logLines.join('\n')).toContain('shared platform login stored');
  });

  it('and no log line carries any of them', () => {
    for (const line of logLines) scanner.scanText('log line', line);
    // Answers were scanned as they came, before the platform cookies were stored: scan them again.
    scanner.rescan();
    expect(scanner.size).toBeGreaterThanOrEqual(15);
    expect(scanner.findings).toEqual([]);
    recordTally('secrets in answers and logs', {
      requests: clients.requests,
      principals: 5,
      badInputs: 6,
      secretsSeen: scanner.findings.length,
    });
  });
});
