/**
 * Player input rules decided by the api before any bot operation: number validation, modes, indexes,
 * platform choice (disabled → 400, not in this build → 501), history limits and the profile config.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playableSong } from '../../daemon/bots/playable-song';
import { recordPlay } from '../../daemon/bots/stores/play-history-store';
import { playHistory } from '../../shared/db/schema';
import { DEFAULT_PROFILE_CONFIG } from '../../shared/domain/constants';
import { insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
let botId: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await setupAdmin(t);
  botId = await insertBot(t);
});
afterAll(() => t.close());

const send = async (method: string, path: string, body?: string) => {
  const res = await t.fetch(
    new Request(`${TEST_ORIGIN}/api/player/${botId}${path}`, {
      method,
      headers: { cookie: admin.jar.header()!, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    }),
  );
  return { status: res.status, body: (await res.json()) as { error?: string } };
};

describe('player input validation', () => {
  it.each([
    ['/volume', '{"volume":"50"}', /^volume: /],
    ['/volume', '{"volume":101}', /^volume: volume must be 0 to 100/],
    ['/volume', '{"volume":-1}', /^volume: /],
    ['/volume', '{"volume":1e999}', /^volume: /],
    ['/volume', '{"volume":NaN}', /not valid JSON/],
    ['/volume', '{}', /^volume: /],
    ['/mode', '{"mode":"shuffle"}', /^mode: /],
    ['/seek', '{"position":-3}', /^position: /],
    ['/seek', '{"position":1e999}', /^position: /],
    ['/seek', '{"position":"10"}', /^position: /],
    ['/play-at', '{"index":1.5}', /^index: /],
    ['/play-at', '{"index":-1}', /^index: /],
    ['/play-song', '{"song":{"id":"x"}}', /^song\./],
    ['/play', '{"query":"   "}', /^query: /],
  ])('POST %s %s → 400', async (path, body, message) => {
    const res = await send('POST', path, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('refuses a non-number queue index and a bad history limit', async () => {
    expect((await send('DELETE', '/queue/abc')).status).toBe(400);
    expect((await send('GET', '/history?limit=0')).status).toBe(400);
    expect((await send('GET', '/history?limit=many')).status).toBe(400);
  });
});

describe('platform choice', () => {
  /** Search goes through the same platform choice as every player call that looks a song up. */
  const search = async (query: Record<string, string>) => {
    const res = await t.fetch(
      new Request(`${TEST_ORIGIN}/api/music/search?${new URLSearchParams(query)}`, {
        headers: { cookie: admin.jar.header()! },
      }),
    );
    return { status: res.status, body: (await res.json()) as { error?: string; songs?: unknown[] } };
  };

  it('refuses a disabled source with 400', async () => {
    const disabled = await search({ q: 'x', platform: 'library_a' });
    expect(disabled).toEqual({
      status: 400,
      body: {
        error: 'This source is not enabled: Jellyfin.',
        code: 'sourceNotEnabled',
        params: { platform: 'library_a' },
      },
    });
  });

  it('treats local as enabled by localAudioEnabled, and says so when no source is enabled', async () => {
    await admin.api.POST('/api/bot/settings', { body: { enabledProviders: [], defaultPlatform: null } });
    expect(await search({ q: 'x' })).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'no music source is enabled' }),
    });
    expect(await search({ q: 'nothing uploaded', platform: 'local' })).toMatchObject({
      status: 200,
      body: { songs: [] },
    });
    await admin.api.POST('/api/bot/settings', { body: { localAudioEnabled: false } });
    const localOff = await search({ q: 'x', platform: 'local' });
    expect(localOff).toEqual({
      status: 400,
      body: {
        error: 'This source is not enabled: Uploaded files.',
        code: 'sourceNotEnabled',
        params: { platform: 'local' },
      },
    });
  });

  it('refuses an audio-starting call on a disconnected bot before looking anything up', async () => {
    await admin.api.POST('/api/bot/settings', { body: { localAudioEnabled: true } });
    const res = await send('POST', '/add', JSON.stringify({ query: 'nothing uploaded', platform: 'local' }));
    expect(res).toMatchObject({ status: 409, body: { ok: false } });
  });
});

describe('profile config', () => {
  it('reads defaults, stores a new config, and refuses incomplete bodies', async () => {
    const path = { params: { path: { botId } } };
    expect((await admin.api.GET('/api/player/{botId}/profile', path)).data).toEqual(DEFAULT_PROFILE_CONFIG);
    const next = { ...DEFAULT_PROFILE_CONFIG, nicknameEnabled: true, avatarEnabled: true };
    const put = await admin.api.PUT('/api/player/{botId}/profile', { ...path, body: next });
    expect(put.data).toEqual(next);
    expect((await admin.api.GET('/api/player/{botId}/profile', path)).data).toEqual(next);
    expect((await send('PUT', '/profile', JSON.stringify({ avatarEnabled: true }))).status).toBe(400);
  });

  it('answers history newest first with the default limit', async () => {
    const res = await admin.api.GET('/api/player/{botId}/history', { params: { path: { botId } } });
    expect(res.data).toEqual({ history: [] });
  });

  it('gives each play what queues it again: its song id, platform and length (none on older rows)', async () => {
    const song = {
      id: 'song-7',
      name: 'Seven',
      artist: 'Band',
      album: 'LP',
      coverUrl: '',
      platform: 'local' as const,
    };
    // A row as recorded before lengths were kept: the column is null.
    await t.db.insert(playHistory).values({
      botId,
      songId: 'song-6',
      name: 'Six',
      artist: 'Band',
      album: 'LP',
      coverUrl: '',
      platform: 'local',
      playedAt: new Date(1000),
    });
    await recordPlay(t.db, botId, playableSong({ ...song, duration: 187 }, 'owner'), new Date(2000));
    const res = await admin.api.GET('/api/player/{botId}/history', { params: { path: { botId } } });
    expect(
      res.data?.history.map(({ songId, platform, duration }) => ({ songId, platform, duration })),
    ).toEqual([
      { songId: 'song-7', platform: 'local', duration: 187 },
      { songId: 'song-6', platform: 'local', duration: null },
    ]);
  });
});
