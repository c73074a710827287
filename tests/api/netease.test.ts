/**
 * `music_a` (NetEase Cloud Music) through the real app, with msw standing in for its API: search answers
 * mapped songs, the anonymous device is registered once and kept in the database, a platform failure
 * is a 502 (never a 500; -460 in plain words), and FM on a disconnected bot is refused before NetEase is
 * asked or the queue changes.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { settings } from '../../shared/db/schema';
import { receipts } from '../../shared/receipts';
import { insertBot, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { useNeteaseApi } from '../helpers/netease-api';
import { FIXTURE_MUSIC_A } from '../helpers/netease-protocol';

const api = useNeteaseApi();
let t: TestApp;
let admin: Session;
let botId: string;
withAdminApp(async (app, session) => {
  t = app;
  admin = session;
  botId = await insertBot(t);
});

describe('music_a through the api', () => {
  it('searches NetEase Cloud Music, the default source', async () => {
    const { data, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'paper' } },
    });
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.id, s.name, s.artist, s.platform, s.vip ?? false])).toEqual([
      ['1901371647', 'Paper Boats', 'River Lane / Kite Hill', 'music_a', false],
      ['1901371648', 'Member Song', 'Velvet Choir', 'music_a', true],
    ]);
    // One cloudsearch each for songs, albums and playlists.
    expect(api.requests.map((r) => r.path)).toEqual(Array(3).fill('/eapi/cloudsearch/pc'));
  });

  it('answers 502 with the reason when NetEase refuses', async () => {
    api.answer('/eapi/cloudsearch/pc', { code: 401, message: '无权限访问' });
    const { error, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'paper', platform: 'music_a' } },
    });
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error: 'music_a: NetEase Cloud Music refused /eapi/cloudsearch/pc (code 401: 无权限访问)',
      code: 'badGateway',
    });
  });

  it('answers its rate limit (code 405) with the phrase of that kind, in the caller language', async () => {
    api.answer('/eapi/cloudsearch/pc', { code: 405, message: '操作频繁' });
    const search = (language: string) =>
      admin.api.GET('/api/music/search', {
        params: { query: { q: 'paper', platform: 'music_a' } },
        headers: { 'accept-language': language },
      });
    const english = await search('en');
    expect(english.response.status).toBe(502);
    expect(english.error).toEqual({
      error: 'NetEase Cloud Music is limiting how often this server asks; try again in a minute.',
      code: 'platformRateLimited',
      params: {
        platform: 'music_a',
        detail:
          'music_a: NetEase Cloud Music is limiting how often we ask; try again in a minute (code 405: 操作频繁)',
      },
    });
    const chinese = await search('zh');
    expect(chinese.error).toMatchObject({
      error: '网易云音乐正在限制本服务器的请求频率，请一分钟后再试。',
      code: 'platformRateLimited',
    });
  });

  it('registers its anonymous device once, keeps it in the database, and sends its token with every call', async () => {
    await admin.api.GET('/api/music/search', { params: { query: { q: 'again', platform: 'music_a' } } });
    expect(api.registrations).toHaveLength(1);
    const row = await t.db.query.settings.findFirst({ where: eq(settings.key, 'neteaseAnonymousDevice') });
    expect(JSON.parse(row?.value ?? '{}')).toEqual({
      deviceId: api.registrations[0]!.deviceId,
      musicA: FIXTURE_MUSIC_A,
      registeredAt: expect.any(Number),
    });
    expect(api.requests.every((r) => r.musicA === FIXTURE_MUSIC_A)).toBe(true);
  });

  it('answers 502 saying in plain words what -460 means and what the admin can do', async () => {
    api.answer('/eapi/cloudsearch/pc', { code: -460, message: '检测到您的网络环境存在风险，请稍后再试' });
    const { error, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'paper', platform: 'music_a' } },
    });
    expect(response.status).toBe(502);
    expect(error?.error).toBe(
      "music_a: NetEase Cloud Music refused this server's requests as coming from a risky network (code -460), as it often does for servers abroad or in data centres without a login; log in to NetEase Cloud Music with the QR code, or try again later",
    );
  });

  it('refuses FM on a disconnected bot with 409, before asking NetEase, and leaves the queue alone', async () => {
    const bot = { params: { path: { botId } } };
    const fm = await admin.api.POST('/api/player/{botId}/fm', { ...bot, body: { platform: 'music_a' } });
    expect(fm.response.status).toBe(409);
    expect(fm.error).toMatchObject({
      error: receipts.notConnected(),
      message: receipts.notConnected(),
      ok: false,
    });
    expect(api.requests).toEqual([]);
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot);
    expect(queue.data?.queue).toEqual([]);
  });
});
