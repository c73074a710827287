/**
 * video_a's own routes of /api/music — popular videos and a video's parts — through the real app with
 * msw standing in for Bilibili's web API; and an audio-starting player call for video_a on a
 * disconnected bot, which is refused with 409 before Bilibili is asked anything (SPEC Player rule 9).
 */
import { describe, expect, it } from 'vitest';
import { receipts } from '../../shared/receipts';
import { insertBot, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { failedWith, useBilibiliApi } from '../helpers/bilibili-api';

const bilibili = useBilibiliApi();
let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const POPULAR = '/x/web-interface/popular';

describe('GET /api/music/video_a/popular', () => {
  it('answers the popular videos as songs, asking for as many as the limit', async () => {
    const { data, response } = await admin.api.GET('/api/music/video_a/popular', {
      params: { query: { limit: 2 } },
    });
    expect(response.status).toBe(200);
    // Every field mapped: id, title, uploader, no album, seconds, the cover made https.
    expect(
      data?.songs.map((s) => [s.id, s.name, s.artist, s.album, s.duration, s.coverUrl, s.platform]),
    ).toEqual([
      [
        'BV1Hp4y1T7Wd',
        'Morning Tide',
        'Tide Choir',
        '',
        198,
        'https://i2.hdslb.com/bfs/archive/fixturepopular0001.jpg',
        'video_a',
      ],
      [
        'BV1Jq4y1V7Zc',
        'Evening Bells',
        'Bell Tower',
        '',
        245,
        'https://i0.hdslb.com/bfs/archive/fixturepopular0002.jpg',
        'video_a',
      ],
    ]);
    expect(bilibili.to(POPULAR).map((r) => Object.fromEntries(r.query))).toEqual([{ ps: '2', pn: '1' }]);
  });

  it("answers 502 with Bilibili's sentence when it refuses", async () => {
    bilibili.answer(POPULAR, failedWith(-352, '风控校验失败'));
    const { error, response } = await admin.api.GET('/api/music/video_a/popular');
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error:
        'video_a: Bilibili refused the request as suspected automation (code -352); try again later or store a Bilibili login',
    });
  });

  it('answers 400 while video_a is disabled, without asking Bilibili', async () => {
    await admin.api.POST('/api/bot/settings', { body: { enabledProviders: ['music_a'] } });
    const { error, response } = await admin.api.GET('/api/music/video_a/popular');
    await admin.api.POST('/api/bot/settings', {
      body: { enabledProviders: ['music_a', 'music_b', 'video_a', 'video_b', 'music_c'] },
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: receipts.sourceNotEnabled('video_a') });
    expect(bilibili.requests).toEqual([]);
  });
});

describe('GET /api/music/video_a/parts', () => {
  it("answers a video's parts, each playable as its own song, for a link as for an id", async () => {
    const parts = ['Opening Lantern', 'Harbor Lights', 'Closing Lantern'];
    const durations = [1201, 1322, 1200];
    const expected = {
      ...{ bvid: 'BV1Qm4y1Z7Kp', title: 'Three Lantern Songs <live>', artist: 'Night Radio' },
      coverUrl: 'https://i1.hdslb.com/bfs/archive/fixturecover0002.jpg',
      parts: parts.map((title, at) => ({
        ...{ id: `BV1Qm4y1Z7Kp?p=${at + 1}`, page: at + 1 },
        ...{ title, duration: durations[at] },
      })),
    };
    for (const bvid of ['BV1Qm4y1Z7Kp', 'https://www.bilibili.com/video/BV1Qm4y1Z7Kp/?p=2', 'av170002']) {
      const { data, response } = await admin.api.GET('/api/music/video_a/parts', {
        params: { query: { bvid } },
      });
      expect(response.status).toBe(200);
      expect(data).toEqual(expected);
    }
  });

  it('answers 404 for a video Bilibili does not know, and for text that names no video', async () => {
    for (const bvid of ['av999999', 'not a video']) {
      const { error, response } = await admin.api.GET('/api/music/video_a/parts', {
        params: { query: { bvid } },
      });
      expect(response.status).toBe(404);
      expect(error).toMatchObject({ error: 'video not found' });
    }
  });

  it('answers 400 without a video', async () => {
    const { response } = await admin.api.GET('/api/music/video_a/parts', {
      params: { query: { bvid: ' ' } },
    });
    expect(response.status).toBe(400);
  });
});

describe('playing video_a on a disconnected bot', () => {
  it('answers 409 and never asks Bilibili', async () => {
    const botId = await insertBot(t);
    const bot = { params: { path: { botId } } };
    const played = await admin.api.POST('/api/player/{botId}/play', {
      ...bot,
      body: { query: 'lantern', platform: 'video_a' },
    });
    expect(played.response.status).toBe(409);
    expect(played.error).toMatchObject({
      error: receipts.notConnected(),
      message: receipts.notConnected(),
      ok: false,
    });
    expect(bilibili.requests).toEqual([]);
    expect((await admin.api.GET('/api/player/{botId}/queue', bot)).data?.queue).toEqual([]);
  });
});
