/**
 * The personal pages of /api/music — recommended playlists, daily songs, personal FM and the account's
 * playlists — through the real app with msw standing in for NetEase Cloud Music (music_a): the
 * platform's shared login (the `platform_accounts` row) or the caller's linked account is what the
 * platform is asked as, a missing login is the platform's 502 sentence, a source without the page is
 * a 501, and guests are refused the three non-guest pages while search and browse stay open.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { personalLinks, platformAccounts } from '../../shared/db/schema';
import { type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { musicUOf, neteaseFixture, useNeteaseApi } from '../helpers/netease-api';

const netease = useNeteaseApi();
let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const SHARED_COOKIE = 'MUSIC_U=shared_music_u; __csrf=sharedcsrf';
const PERSONAL_COOKIE = 'MUSIC_U=personal_music_u; __csrf=personalcsrf';
const RADIO = '/weapi/v1/radio/get';
/** More than the 30 these pages were once cut to. */
const MANY = 45;

/** `count` copies of the first entry of a NetEase list fixture, each with its own id and name. */
function many<T extends { id: number; name: string }>(entries: T[], count = MANY): T[] {
  return Array.from({ length: count }, (_, i) => ({
    ...entries[0]!,
    id: entries[0]!.id + 1000 + i,
    name: `n${i}`,
  }));
}

/** Stores the shared NetEase login, as a platform login through the api does. */
const logIn = () =>
  t.db
    .insert(platformAccounts)
    .values({ platform: 'music_a', credential: SHARED_COOKIE, updatedAt: new Date() });
afterEach(async () => {
  await t.db.delete(platformAccounts);
  await t.db.delete(personalLinks);
});

describe('GET /api/music/recommend/playlists', () => {
  it('logged out: the playlists NetEase recommends to everyone, cut to the limit', async () => {
    const { data, response } = await admin.api.GET('/api/music/recommend/playlists', {
      params: { query: { limit: 2 } },
    });
    expect(response.status).toBe(200);
    expect(data?.playlists.map((p) => [p.id, p.name, p.platform])).toEqual([
      ['7000000101', 'Rainy Day Piano', 'music_a'],
      ['7000000102', 'Road Trip Anthems', 'music_a'],
    ]);
    expect(netease.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([
      ['/weapi/personalized/playlist', null],
    ]);
  });

  it("logged in: the account's own daily playlists, asked with the shared login", async () => {
    await logIn();
    const { response } = await admin.api.GET('/api/music/recommend/playlists');
    expect(response.status).toBe(200);
    expect(netease.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([
      ['/weapi/v1/discovery/recommend/resource', musicUOf(SHARED_COOKIE)],
    ]);
  });

  it('answers 501 for a source without recommendations (local)', async () => {
    const { error, response } = await admin.api.GET('/api/music/recommend/playlists', {
      params: { query: { platform: 'local' } },
    });
    expect(response.status).toBe(501);
    expect(error).toMatchObject({ error: 'the source local has no recommended playlists' });
  });
});

describe('GET /api/music/recommend/songs', () => {
  it("answers the account's daily songs", async () => {
    await logIn();
    const { data, response } = await admin.api.GET('/api/music/recommend/songs');
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.id, s.name, s.artist, s.album, s.duration, s.vip ?? false])).toEqual([
      ['1901371661', 'Sunrise Ferry', 'Harbour Bells', 'Early Tides', 203, false],
      expect.arrayContaining(['1901371662', 'Locked Door']),
    ]);
  });

  it('answers every daily song NetEase sends, none cut off', async () => {
    await logIn();
    const daily = neteaseFixture('recommend-songs') as {
      data: { dailySongs: { id: number; name: string }[] };
    };
    netease.answer('/weapi/v3/discovery/recommend/songs', {
      ...daily,
      data: { ...daily.data, dailySongs: many(daily.data.dailySongs) },
    });
    const { data } = await admin.api.GET('/api/music/recommend/songs');
    expect(data?.songs.map((s) => s.name)).toEqual(Array.from({ length: MANY }, (_, i) => `n${i}`));
  });

  it("answers 502 with NetEase's sentence without a login, and never asks NetEase", async () => {
    const { error, response } = await admin.api.GET('/api/music/recommend/songs');
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error: 'music_a: the daily recommendation needs a NetEase Cloud Music login; log in first',
    });
    expect(netease.requests).toEqual([]);
  });
});

describe('GET /api/music/personal/fm', () => {
  it('asks as the shared login when the caller linked no account of their own', async () => {
    await logIn();
    const { data, response } = await admin.api.GET('/api/music/personal/fm');
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.id, s.name, s.vip ?? false])).toEqual([
      ['1901371651', 'Morning Walk', false],
      ['1901371652', 'Night Drive', true],
    ]);
    expect(netease.requests.map((r) => [r.path, r.musicU ?? null])).toEqual([
      [RADIO, musicUOf(SHARED_COOKIE)],
    ]);
  });

  it("asks as the caller's own linked account when there is one (SPEC Player rule 8)", async () => {
    await logIn();
    await t.db.insert(personalLinks).values({
      userId: admin.id,
      platform: 'music_a',
      credential: PERSONAL_COOKIE,
      linkedAt: new Date(),
    });
    const { data } = await admin.api.GET('/api/music/personal/fm');
    expect(data?.songs.map((s) => s.name)).toEqual(['Morning Walk', 'Night Drive']);
    expect(netease.requests.map((r) => r.musicU ?? null)).toEqual([musicUOf(PERSONAL_COOKIE)]);
  });

  it('answers the whole batch NetEase sends, none cut off', async () => {
    await logIn();
    const fm = neteaseFixture('personal-fm') as { data: { id: number; name: string }[] };
    netease.answer(RADIO, { ...fm, data: many(fm.data) });
    const { data } = await admin.api.GET('/api/music/personal/fm');
    expect(data?.songs).toHaveLength(MANY);
  });

  it("answers 502 with NetEase's sentence when it refuses the login", async () => {
    await logIn();
    netease.answer(RADIO, { code: 301, msg: '需要登录' });
    const { error, response } = await admin.api.GET('/api/music/personal/fm');
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error:
        'The login to NetEase Cloud Music has expired; an admin can log in again under Settings, Music platforms.',
      code: 'platformLoginExpired',
      params: { platform: 'music_a' },
    });
  });

  it('answers 501 for a source without FM (local)', async () => {
    const { error, response } = await admin.api.GET('/api/music/personal/fm', {
      params: { query: { platform: 'local' } },
    });
    expect(response.status).toBe(501);
    expect(error).toMatchObject({ error: 'personal FM for local is not available in this build' });
  });
});

describe('GET /api/music/user/playlists', () => {
  it("answers the logged-in account's created and collected playlists", async () => {
    await logIn();
    const { data, response } = await admin.api.GET('/api/music/user/playlists');
    expect(response.status).toBe(200);
    expect(data?.playlists.map((p) => [p.id, p.name, p.songCount])).toEqual([
      ['7000000301', 'Harbour Listener喜欢的音乐', 212],
      ['7000000302', 'Late Night Drives', 33],
      expect.arrayContaining(['7000000001']),
    ]);
  });

  it('answers every playlist of an account with more than 30, none cut off', async () => {
    await logIn();
    const fixture = neteaseFixture('user-playlist') as { playlist: { id: number; name: string }[] };
    netease.answer('/weapi/user/playlist', { ...fixture, playlist: many(fixture.playlist) });
    const { data } = await admin.api.GET('/api/music/user/playlists');
    expect(data?.playlists.map((p) => p.name)).toEqual(Array.from({ length: MANY }, (_, i) => `n${i}`));
  });

  it('answers 502 naming the missing login', async () => {
    const { error, response } = await admin.api.GET('/api/music/user/playlists');
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error: "music_a: listing the account's playlists needs a NetEase Cloud Music login; log in first",
    });
  });

  it('answers 501 for a source without account playlists (video_a)', async () => {
    const { error, response } = await admin.api.GET('/api/music/user/playlists', {
      params: { query: { platform: 'video_a' } },
    });
    expect(response.status).toBe(501);
    expect(error).toMatchObject({ error: 'the source video_a has no account playlists' });
  });
});

describe('guests', () => {
  let guest: Session['api'];
  beforeAll(async () => {
    const enabled = await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
    expect(enabled.response.status).toBe(200);
    guest = t.browser().api;
    expect((await guest.POST('/api/session/guest')).response.status).toBe(200);
  });

  it('are refused daily songs, personal FM and the account playlists, before any platform is asked', async () => {
    await logIn();
    for (const path of [
      '/api/music/recommend/songs',
      '/api/music/personal/fm',
      '/api/music/user/playlists',
    ] as const) {
      const { error, response } = await guest.GET(path);
      expect([path, response.status, error]).toEqual([
        path,
        403,
        expect.objectContaining({ error: 'not available to guests' }),
      ]);
    }
    expect(netease.requests).toEqual([]);
  });

  it('may still search, browse and see the recommended playlists', async () => {
    expect(
      (await guest.GET('/api/music/search', { params: { query: { q: 'paper' } } })).response.status,
    ).toBe(200);
    const song = await guest.GET('/api/music/song/{id}', { params: { path: { id: '1901371647' } } });
    expect(song.data?.name).toBe('Paper Boats');
    expect((await guest.GET('/api/music/recommend/playlists')).response.status).toBe(200);
  });
});
