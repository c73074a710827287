/**
 * The `streaming_a` catalog against the msw stand-in for Spotify's Web API as it answers a
 * Development Mode app since February 2026: the mapping of tracks, albums and playlists to the
 * service's shapes, paging (searches in pages of at most 10), playlists read through
 * `/playlists/{id}/items` (and refused in words for a playlist the account does not own), ids in every
 * accepted form, the account, and the token's renewal (expired before a call, or refused with 401
 * during one) stored back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CLIENT_ID,
  FOLLOWED_PLAYLIST,
  OWN_PLAYLIST,
  spotifySettings,
  storeSpotifySettings,
  useSpotifyApi,
} from '../../../tests/helpers/spotify-api';
import { type Db, migrateDb, openDb } from '../../db/client';
import { platformAccounts } from '../../db/schema';
import { NOT_OWN_PLAYLIST, SpotifyCatalog } from './spotify-catalog';
import { NOT_LOGGED_IN, storedSpotifyClient } from './spotify-client';
import { NOT_CONFIGURED } from './spotify-config';
import { storedSpotifyTokens } from './spotify-token-store';

const spotify = useSpotifyApi();
const dir = mkdtempSync(join(tmpdir(), 'spotify-catalog-'));
let db: Db;
let catalog: SpotifyCatalog;

beforeAll(async () => {
  db = openDb({ url: `file:${join(dir, 'bot.db')}` });
  await migrateDb(db);
  catalog = new SpotifyCatalog(storedSpotifyClient(db));
});
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await storeSpotifySettings(db, spotifySettings());
  await spotify.storeLogin(db);
});

const NIGHT_FERRY = {
  id: '4TrackNightFerry000001',
  name: 'Night Ferry',
  artist: 'Lantern Bay / Mira Sol',
  album: 'Harbor Lights',
  duration: 3,
  coverUrl: 'https://i.scdn.example/image/harbor-640',
  platform: 'streaming_a',
};
const webApiCalls = () => spotify.requests.filter((r) => r.path.startsWith('/v1/'));

describe('finding songs, albums and playlists', () => {
  it('searches tracks as songs: artists joined, widest cover, seconds, in the account’s market', async () => {
    const found = await catalog.search('ferry', 10);
    expect(found).toEqual({
      ok: true,
      value: [NIGHT_FERRY, expect.objectContaining({ name: 'Saltwater', duration: 202 })],
    });
    expect(webApiCalls()).toHaveLength(1);
    expect(webApiCalls()[0]).toMatchObject({
      method: 'GET',
      path: '/v1/search',
      query: { q: 'ferry', type: 'track', limit: '10', offset: '0', market: 'from_token' },
      authorization: expect.stringMatching(/^Bearer BQ/),
    });
  });

  it('fills a request for more than 10 with pages of at most 10, Spotify’s search limit', async () => {
    spotify.findTracks(40);
    const found = await catalog.search('ferry', 25, 3);
    expect(found.ok && found.value.map((s) => s.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `Found ${i + 3}`),
    );
    expect(webApiCalls().map((r) => [r.query.offset, r.query.limit])).toEqual([
      ['3', '10'],
      ['13', '10'],
      ['23', '5'],
    ]);
  });

  it('stops at the last result, and asks nothing past Spotify’s deepest offset', async () => {
    spotify.findTracks(12);
    const found = await catalog.search('ferry', 50);
    expect(found.ok && found.value).toHaveLength(12);
    expect(webApiCalls().map((r) => r.query.offset)).toEqual(['0', '10']);
    expect(await catalog.search('ferry', 10, 1001)).toEqual({ ok: true, value: [] });
    expect(webApiCalls()).toHaveLength(2);
  });

  it('searches albums and playlists, leaving out the playlists Spotify answers as null', async () => {
    expect(await catalog.searchAlbums('harbor', 5)).toEqual({
      ok: true,
      value: [
        {
          id: '1AlbumHarborLights0001',
          name: 'Harbor Lights',
          artist: 'Lantern Bay',
          coverUrl: 'https://i.scdn.example/image/harbor-640',
          songCount: 12,
          platform: 'streaming_a',
        },
      ],
    });
    expect(await catalog.searchPlaylists('crossings', 5)).toEqual({
      ok: true,
      value: [
        {
          id: '3PlaylistCrossings0001',
          name: 'Crossings',
          coverUrl: 'https://i.scdn.example/image/crossings-640',
          songCount: 4,
          platform: 'streaming_a',
        },
      ],
    });
    expect(webApiCalls().map((r) => r.query.type)).toEqual(['album', 'playlist']);
  });

  it('finds a song by id, spotify: URI or open.spotify.com link; an unknown one is undefined', async () => {
    for (const id of [
      '4TrackNightFerry000001',
      'spotify:track:4TrackNightFerry000001',
      'https://open.spotify.com/intl-de/track/4TrackNightFerry000001?si=abc',
    ])
      expect(await catalog.song(id)).toEqual({ ok: true, value: NIGHT_FERRY });
    expect(await catalog.song('4TrackUnknown000000000')).toEqual({ ok: true, value: undefined });
    const before = webApiCalls().length;
    for (const id of [
      'not an id',
      'spotify:album:1AlbumHarborLights0001',
      'https://evil.example/track/4TrackNightFerry000001',
    ])
      expect(await catalog.song(id)).toEqual({ ok: true, value: undefined });
    expect(webApiCalls()).toHaveLength(before);
  });
});

describe('collections', () => {
  it('loads every page of an album, its songs carrying the album’s name and cover', async () => {
    const album = await catalog.album('1AlbumHarborLights0001');
    expect(album.ok && album.value?.songs.map((s) => [s.name, s.album, s.coverUrl, s.duration])).toEqual([
      ['Harbor One', 'Harbor Lights', 'https://i.scdn.example/image/harbor-640', 180],
      ['Harbor Two', 'Harbor Lights', 'https://i.scdn.example/image/harbor-640', 190],
      ['Harbor Three', 'Harbor Lights', 'https://i.scdn.example/image/harbor-640', 200],
    ]);
    expect(webApiCalls().map((r) => [r.path, r.query])).toEqual([
      ['/v1/albums/1AlbumHarborLights0001', { market: 'from_token' }],
      ['/v1/albums/1AlbumHarborLights0001/tracks', { market: 'from_token', limit: '50', offset: '2' }],
    ]);
    expect(await catalog.album('1AlbumUnknown000000000')).toEqual({ ok: true, value: undefined });
  });

  it('loads a playlist’s items, leaving out removed tracks, episodes and local files, and counts them', async () => {
    const playlist = await catalog.playlist(`https://open.spotify.com/playlist/${OWN_PLAYLIST}`);
    expect(playlist).toEqual({
      ok: true,
      value: { songs: [NIGHT_FERRY, expect.objectContaining({ name: 'Saltwater' })], totalCount: 5 },
    });
    expect(webApiCalls()[0]).toMatchObject({
      path: `/v1/playlists/${OWN_PLAYLIST}/items`,
      query: { market: 'from_token', limit: '50' },
    });
    expect(await catalog.playlist('3PlaylistUnknown000000')).toEqual({ ok: true, value: undefined });
  });

  it('says in words that Spotify shows the songs only of the account’s own playlists', async () => {
    expect(await catalog.playlist(FOLLOWED_PLAYLIST)).toEqual({ ok: false, error: NOT_OWN_PLAYLIST });
  });

  it('details a playlist, and lists the account’s own playlists', async () => {
    expect(await catalog.playlistDetail(OWN_PLAYLIST)).toEqual({
      ok: true,
      value: {
        id: '3PlaylistCrossings0001',
        name: 'Crossings',
        description: 'Songs for <b>late</b> crossings',
        coverUrl: 'https://i.scdn.example/image/crossings-640',
        songCount: 5,
      },
    });
    expect(webApiCalls()[0]?.query.fields).toBe('id,name,description,images,items.total');
    // One it only follows has no count for this app.
    expect(await catalog.playlistDetail(FOLLOWED_PLAYLIST)).toMatchObject({
      ok: true,
      value: { name: 'Morning Tide', songCount: 0 },
    });
    const mine = await catalog.userPlaylists();
    expect(mine.ok && mine.value.map((p) => [p.name, p.songCount])).toEqual([
      ['Crossings', 4],
      ['Morning Tide', 17],
    ]);
  });
});

describe('the account and its tokens', () => {
  it('names the logged-in account, and is "not logged in" without a login', async () => {
    expect(await catalog.accountStatus()).toEqual({
      ok: true,
      value: {
        loggedIn: true,
        nickname: 'Dock Keeper',
        avatarUrl: 'https://i.scdn.example/image/keeper-300',
      },
    });
    await db.delete(platformAccounts);
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    expect(await catalog.search('ferry', 5)).toEqual({ ok: false, error: NOT_LOGGED_IN });
  });

  it('is a readable "not configured" while the settings are off', async () => {
    await storeSpotifySettings(db, spotifySettings({ enabled: false }));
    expect(await catalog.search('ferry', 5)).toEqual({ ok: false, error: NOT_CONFIGURED });
    expect(await catalog.accountStatus()).toEqual({ ok: true, value: { loggedIn: false } });
    expect(webApiCalls()).toHaveLength(0);
  });

  it('renews an expired access token with the refresh token before the call, and stores it back', async () => {
    const held = await spotify.storeLogin(db, { expired: true });
    const found = await catalog.search('ferry', 5);
    expect(found.ok).toBe(true);
    const [renewal] = spotify.requests.filter((r) => r.path === '/api/token');
    expect(renewal?.body).toEqual({
      grant_type: 'refresh_token',
      refresh_token: held.refreshToken,
      client_id: CLIENT_ID,
    });
    const stored = await storedSpotifyTokens(db).load();
    expect(stored?.accessToken).not.toBe(held.accessToken);
    // Spotify's answer had no new refresh token: the held one is kept.
    expect(stored?.refreshToken).toBe(held.refreshToken);
    expect(stored!.expiresAt).toBeGreaterThan(Date.now() + 3000_000);
    expect(webApiCalls()[0]?.authorization).toBe(`Bearer ${stored?.accessToken}`);
  });

  it('renews once when Spotify answers 401, retries, and shares one renewal between calls at once', async () => {
    spotify.expireAccessTokens();
    const answers = await Promise.all([catalog.search('ferry', 5), catalog.song('4TrackNightFerry000001')]);
    expect(answers.map((a) => a.ok)).toEqual([true, true]);
    expect(spotify.requests.filter((r) => r.path === '/api/token')).toHaveLength(1);
    const stored = await storedSpotifyTokens(db).load();
    const [first, second, ...retried] = webApiCalls().map((r) => r.authorization);
    expect(first).toBe(second);
    expect(first).not.toBe(`Bearer ${stored?.accessToken}`);
    expect(retried).toEqual([`Bearer ${stored?.accessToken}`, `Bearer ${stored?.accessToken}`]);
  });

  it('says why when the refresh token is refused', async () => {
    await spotify.storeLogin(db, { expired: true });
    spotify.answer('POST /api/token', () =>
      Response.json({ error: 'invalid_grant', error_description: 'Refresh token revoked' }, { status: 400 }),
    );
    expect(await catalog.search('ferry', 5)).toEqual({
      ok: false,
      error: 'Spotify refused the login (Refresh token revoked)',
    });
  });
});
