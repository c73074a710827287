/**
 * library_a (Jellyfin) through /api/music with msw standing in for the Jellyfin server: the source is
 * opt-in, so every library route answers 400 until it is enabled; then search and the five library
 * pages (latest albums, most played, favourites, genres, a genre's songs) answer the server's items
 * mapped to the API's shapes, a server failure is a 502 naming Jellyfin, and guests are refused the
 * favourites. The library pages are in the route contracts (openapi/routes/music.ts) but not yet in
 * the generated client, so they are called as plain requests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENABLED_PROVIDERS } from '../../shared/domain/constants';
import { receipts } from '../../shared/receipts';
import { type Session, withAdminApp } from '../../testkit/accounts';
import type { CookieJar } from '../../testkit/cookie-jar';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { ALICE_LOGIN, useJellyfinApi } from '../helpers/jellyfin-api';

const jellyfin = useJellyfinApi();
let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const LIBRARY_PAGES = [
  '/api/music/library_a/latest-albums',
  '/api/music/library_a/most-played',
  '/api/music/library_a/favorites',
  '/api/music/library_a/genres',
  '/api/music/library_a/genre/d0000000000000000000000000000001/songs',
];
const ROCK = 'd0000000000000000000000000000001';

/** GET `path` as the browser holding `jar`: its status and JSON body. */
async function get(path: string, jar: CookieJar = admin.jar) {
  const response = await t.fetch(new Request(`${TEST_ORIGIN}${path}`), jar);
  return { status: response.status, body: await response.json() };
}

const names = (body: { songs?: { name: string }[]; albums?: { name: string }[] }) =>
  (body.songs ?? body.albums ?? []).map((entry) => entry.name);

describe('library_a while it is not enabled (the default)', () => {
  it('answers 400 for search and every library page, without asking the server', async () => {
    for (const path of ['/api/music/search?q=lantern&platform=library_a', ...LIBRARY_PAGES]) {
      const { status, body } = await get(path);
      expect([path, status, body]).toEqual([
        path,
        400,
        expect.objectContaining({ error: receipts.sourceNotEnabled('library_a') }),
      ]);
    }
    expect(jellyfin.requests).toEqual([]);
  });
});

describe('library_a once enabled and configured', () => {
  beforeAll(async () => {
    const { response } = await admin.api.POST('/api/bot/settings', {
      body: { enabledProviders: [...DEFAULT_ENABLED_PROVIDERS, 'library_a'], jellyfin: ALICE_LOGIN },
    });
    expect(response.status).toBe(200);
  });

  // Songs, albums and playlists are searched at once: three first calls that each log in on the same
  // device must not end each other's tokens.
  it('searches the library', async () => {
    const { status, body } = await get('/api/music/search?q=lantern&platform=library_a');
    expect(status).toBe(200);
    expect(body.songs).toEqual([expect.objectContaining({ name: 'Lantern Song', platform: 'library_a' })]);
  });

  it('answers the newest albums, 12 unless a limit is given', async () => {
    const { status, body } = await get('/api/music/library_a/latest-albums');
    expect(status).toBe(200);
    expect(names(body)).toEqual(['Harbour Lights', 'Crossings']);
    expect(jellyfin.to('/Items').at(-1)?.query).toMatchObject({
      SortBy: 'DateCreated,SortName',
      Limit: '12',
    });
    await get('/api/music/library_a/latest-albums?limit=3');
    expect(jellyfin.to('/Items').at(-1)?.query.Limit).toBe('3');
  });

  it('answers the songs played most (12 unless a limit is given) and the favourite songs', async () => {
    const played = await get('/api/music/library_a/most-played');
    expect([played.status, names(played.body)]).toEqual([200, ['Lantern Song', 'Night Ferry']]);
    expect(jellyfin.to('/Items').at(-1)?.query).toMatchObject({ Filters: 'IsPlayed', Limit: '12' });
    const favorites = await get('/api/music/library_a/favorites');
    expect([favorites.status, names(favorites.body)]).toEqual([200, ['Lantern Song', 'Night Ferry']]);
    expect(jellyfin.to('/Items').at(-1)?.query).toMatchObject({ Filters: 'IsFavorite', Limit: '100' });
  });

  it("answers the genres (30 unless a limit is given) and a genre's songs (100)", async () => {
    const genres = await get('/api/music/library_a/genres');
    expect(jellyfin.to('/MusicGenres').at(-1)?.query.Limit).toBe('30');
    expect(genres).toEqual({
      status: 200,
      body: {
        genres: [
          { id: 'd0000000000000000000000000000002', name: 'Jazz' },
          { id: ROCK, name: 'Rock' },
        ],
      },
    });
    const rock = await get(`/api/music/library_a/genre/${ROCK}/songs`);
    expect([rock.status, names(rock.body)]).toEqual([200, ['Lantern Song', 'Tide Tables']]);
    expect(jellyfin.to('/Items').at(-1)?.query).toMatchObject({ GenreIds: ROCK, Limit: '100' });
  });

  it('answers 502 naming Jellyfin when the server fails', async () => {
    jellyfin.answer('GET /Items', () => new Response('upstream down', { status: 502 }));
    const { status, body } = await get('/api/music/library_a/most-played');
    expect([status, body]).toEqual([
      502,
      expect.objectContaining({ error: 'library_a: Jellyfin answered HTTP 502 to /Items' }),
    ]);
  });

  it('refuses guests the favourites, but not the other pages', async () => {
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
    const guest = t.browser();
    expect((await guest.api.POST('/api/session/guest')).response.status).toBe(200);
    expect(await get('/api/music/library_a/favorites', guest.jar)).toEqual({
      status: 403,
      body: expect.objectContaining({ error: 'not available to guests' }),
    });
    expect((await get('/api/music/library_a/genres', guest.jar)).status).toBe(200);
  });
});
