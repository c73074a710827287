/** /api/favorites: own data only, duplicates 409, bad input 400, guests refused. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

let t: TestApp;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  const admin = await setupAdmin(t);
  alice = await createMember(t, admin);
  bob = await createMember(t, admin);
  await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
});
afterAll(() => t.close());

const raw = (
  session: Session | undefined,
  method: string,
  path: string,
  body?: string,
  contentType = 'application/json',
) =>
  t.fetch(
    new Request(`${TEST_ORIGIN}${path}`, {
      method,
      ...(body === undefined ? {} : { body, headers: { 'content-type': contentType } }),
    }),
    session?.jar,
  );

const playlist = { platform: 'music_a' as const, playlistId: '24381616', name: 'Evening mix' };

describe('favorites', () => {
  it('adds, lists and checks a favorite', async () => {
    const added = await alice.api.POST('/api/favorites', {
      body: { ...playlist, coverUrl: 'https://img.example/c.jpg', songCount: 42 },
    });
    expect(added.response.status).toBe(200);
    expect(added.data).toEqual({ success: true });

    const { data } = await alice.api.GET('/api/favorites');
    expect(data?.favorites).toHaveLength(1);
    expect(data?.favorites[0]).toMatchObject({
      ...playlist,
      coverUrl: 'https://img.example/c.jpg',
      songCount: 42,
    });
    expect(data?.favorites[0]?.id).toEqual(expect.any(String));
    expect(Number.isNaN(Date.parse(data!.favorites[0]!.createdAt))).toBe(false);

    const check = await alice.api.GET('/api/favorites/check', {
      params: { query: { platform: 'music_a', playlistId: '24381616' } },
    });
    expect(check.data).toEqual({ favorited: true });
    const other = await alice.api.GET('/api/favorites/check', {
      params: { query: { platform: 'music_b', playlistId: '24381616' } },
    });
    expect(other.data).toEqual({ favorited: false });
  });

  it('defaults coverUrl to "" and songCount to 0', async () => {
    await bob.api.POST('/api/favorites', { body: { platform: 'video_a', playlistId: 'p1', name: 'Bare' } });
    const { data } = await bob.api.GET('/api/favorites');
    expect(data?.favorites.find((f) => f.playlistId === 'p1')).toMatchObject({ coverUrl: '', songCount: 0 });
  });

  it('answers 409 for the same playlist twice, per user', async () => {
    const again = await alice.api.POST('/api/favorites', { body: playlist });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ error: expect.any(String) });
    // Another user may favorite the same playlist.
    expect((await bob.api.POST('/api/favorites', { body: playlist })).response.status).toBe(200);
  });

  it('shows each user only their own favorites', async () => {
    const mine = (await alice.api.GET('/api/favorites')).data!.favorites;
    const theirs = (await bob.api.GET('/api/favorites')).data!.favorites;
    const mineIds = new Set(mine.map((f) => f.id));
    expect(theirs.some((f) => mineIds.has(f.id))).toBe(false);
    expect(theirs.map((f) => f.playlistId).sort()).toEqual(['24381616', 'p1']);
  });

  it("deletes one's own favorite; another user's reads as 404", async () => {
    const [favorite] = (await alice.api.GET('/api/favorites')).data!.favorites;
    const byBob = await bob.api.DELETE('/api/favorites/{id}', { params: { path: { id: favorite!.id } } });
    expect(byBob.response.status).toBe(404);
    expect((await alice.api.GET('/api/favorites')).data!.favorites).toHaveLength(1);

    const byAlice = await alice.api.DELETE('/api/favorites/{id}', { params: { path: { id: favorite!.id } } });
    expect(byAlice.response.status).toBe(200);
    expect(byAlice.data).toEqual({ success: true });
    expect((await alice.api.GET('/api/favorites')).data!.favorites).toEqual([]);
    const twice = await alice.api.DELETE('/api/favorites/{id}', { params: { path: { id: favorite!.id } } });
    expect(twice.response.status).toBe(404);
  });

  it.each([
    ['no body', undefined],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['no platform', JSON.stringify({ playlistId: '1', name: 'n' })],
    ['no playlistId', JSON.stringify({ platform: 'music_a', name: 'n' })],
    ['no name', JSON.stringify({ platform: 'music_a', playlistId: '1' })],
    ['an unknown platform', JSON.stringify({ platform: 'nope', playlistId: '1', name: 'n' })],
    ['an empty playlistId', JSON.stringify({ platform: 'music_a', playlistId: ' ', name: 'n' })],
    [
      'a negative songCount',
      JSON.stringify({ ...{ platform: 'music_a', playlistId: '1', name: 'n' }, songCount: -1 }),
    ],
    ['an unknown field', JSON.stringify({ platform: 'music_a', playlistId: '1', name: 'n', extra: 1 })],
  ])('POST with %s is a 400', async (_label, body) => {
    const res = await raw(alice, 'POST', '/api/favorites', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
  });

  it('POST without a JSON content type is a 400', async () => {
    const res = await raw(alice, 'POST', '/api/favorites', JSON.stringify(playlist), 'text/plain');
    expect(res.status).toBe(400);
  });

  it.each([
    ['platform twice', '?platform=music_a&platform=music_b&playlistId=1'],
    ['playlistId twice', '?platform=music_a&playlistId=1&playlistId=2'],
    ['no platform', '?playlistId=1'],
    ['no playlistId', '?platform=music_a'],
    ['an unknown platform', '?platform=elsewhere&playlistId=1'],
  ])('GET /check with %s is a 400', async (_label, query) => {
    const res = await raw(alice, 'GET', `/api/favorites/check${query}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
  });

  it('refuses guests and anonymous callers', async () => {
    const guest = t.browser();
    expect((await guest.api.POST('/api/session/guest')).response.status).toBe(200);
    for (const [method, path, body] of [
      ['GET', '/api/favorites', undefined],
      ['POST', '/api/favorites', JSON.stringify(playlist)],
      ['GET', '/api/favorites/check?platform=music_a&playlistId=1', undefined],
      ['DELETE', '/api/favorites/x', undefined],
    ] as const) {
      const asGuest = await t.fetch(
        new Request(`${TEST_ORIGIN}${path}`, {
          method,
          ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
        }),
        guest.jar,
      );
      expect({ path, method, status: asGuest.status }).toEqual({ path, method, status: 403 });
      const anonymous = await raw(undefined, method, path, body);
      expect({ path, method, status: anonymous.status }).toEqual({ path, method, status: 401 });
    }
  });
});
