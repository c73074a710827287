/**
 * `music_a` (NetEase Cloud Music) through the real app, with msw standing in for weapi: search answers
 * mapped songs, a platform failure is a 502 (never a 500), and FM on a disconnected bot is refused
 * before NetEase is asked or the queue changes.
 */
import { describe, expect, it } from 'vitest';
import { receipts } from '../../shared/receipts';
import { insertBot, type Session, withAdminApp } from '../helpers/accounts';
import { useNeteaseApi } from '../helpers/netease-api';

const api = useNeteaseApi();
let admin: Session;
let botId: string;
withAdminApp(async (t, session) => {
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
    expect(api.requests.map((r) => r.path)).toEqual(Array(3).fill('/weapi/cloudsearch/get/web'));
  });

  it('answers 502 with the reason when NetEase refuses', async () => {
    api.answer('/weapi/cloudsearch/get/web', { code: 405, message: '操作频繁' });
    const { error, response } = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'paper', platform: 'music_a' } },
    });
    expect(response.status).toBe(502);
    expect(error).toEqual({
      error: 'music_a: NetEase Cloud Music refused /weapi/cloudsearch/get/web (code 405: 操作频繁)',
    });
  });

  it('refuses FM on a disconnected bot with 409, before asking NetEase, and leaves the queue alone', async () => {
    const bot = { params: { path: { botId } } };
    const fm = await admin.api.POST('/api/player/{botId}/fm', { ...bot, body: { platform: 'music_a' } });
    expect(fm.response.status).toBe(409);
    expect(fm.error).toEqual({ error: receipts.notConnected(), message: receipts.notConnected(), ok: false });
    expect(api.requests).toEqual([]);
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot);
    expect(queue.data?.queue).toEqual([]);
  });
});
