/**
 * GET /api/music/search/all: every enabled source at once. A source that hangs is left out once its
 * deadline passes and the others' results still come back; streaming_a is never asked, even enabled
 * and logged in with msw standing in for Spotify.
 */
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { SEARCH_ALL_SOURCE_TIMEOUT_MS } from '../../api/music/song-finder';
import { type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import { useMswServer } from '../helpers/msw-server';
import { spotifySettings, storeSpotifySettings, useSpotifyApi } from '../helpers/spotify-api';

let asked: string[] = [];
useMswServer(
  // NetEase never answers (on any of its API hosts); QQ Music answers garbage (its device registration
  // host too): a failing source adds nothing either.
  http.all(/^https:\/\/(?:[a-z0-9]+\.)*music\.163\.com\//, async () => {
    asked.push('music_a');
    await delay('infinite');
    return HttpResponse.json({});
  }),
  http.all(/^https:\/\/(?:u\.y\.qq|api\.tencentmusic)\.com\//, () => {
    asked.push('music_b');
    return HttpResponse.text('<html>busy</html>');
  }),
);

const spotify = useSpotifyApi();

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

describe('search across every source', () => {
  it('answers with the sources that answered when one hangs and one fails', async () => {
    await admin.api.POST('/api/bot/settings', {
      body: { enabledProviders: ['music_a', 'music_b'], localAudioEnabled: true },
    });
    await addToneUpload(t.db, t.dataDir, 'Hanging Gardens', [{ frequencyHz: 440, seconds: 1 }]);
    asked = [];
    const started = Date.now();
    const { data, response } = await admin.api.GET('/api/music/search/all', {
      params: { query: { q: 'gardens' } },
    });
    const took = Date.now() - started;
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.platform, s.name])).toEqual([['local', 'Hanging Gardens']]);
    expect(new Set(asked)).toEqual(new Set(['music_a', 'music_b']));
    expect(took).toBeGreaterThanOrEqual(SEARCH_ALL_SOURCE_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(SEARCH_ALL_SOURCE_TIMEOUT_MS + 3000);
  });

  it('never asks streaming_a, even enabled as the default source, logged in and able to answer', async () => {
    await admin.api.POST('/api/bot/settings', {
      body: { enabledProviders: ['streaming_a'], defaultPlatform: 'streaming_a', localAudioEnabled: true },
    });
    await storeSpotifySettings(t.db, spotifySettings());
    await spotify.storeLogin(t.db);
    await addToneUpload(t.db, t.dataDir, 'Night Ferry (demo)', [{ frequencyHz: 440, seconds: 1 }]);
    // Searched by itself, Spotify has a Night Ferry…
    const alone = await admin.api.GET('/api/music/search', { params: { query: { q: 'night ferry' } } });
    expect(alone.data?.songs.map((s) => [s.platform, s.name])).toContainEqual(['streaming_a', 'Night Ferry']);
    spotify.requests.length = 0;
    // …but the all-sources search leaves it out and never asks it (SPEC platform rule 5).
    const { data, response } = await admin.api.GET('/api/music/search/all', {
      params: { query: { q: 'night ferry' } },
    });
    expect(response.status).toBe(200);
    expect(data?.songs.map((s) => [s.platform, s.name])).toEqual([['local', 'Night Ferry (demo)']]);
    expect(spotify.requests).toEqual([]);
  });

  it('refuses a missing query', async () => {
    const res = await t.fetch(
      new Request('http://bot.test/api/music/search/all', { headers: { cookie: admin.jar.header()! } }),
    );
    expect(res.status).toBe(400);
  });
});
