/**
 * /api/spotify through the real app: the PKCE login (authorization page → Spotify's redirect →
 * callback → status) against the msw stand-in for Spotify, the 404 while the `spotify` settings are
 * not configured, the failures the browser is sent back with, and no secret in any answer.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { platformAccounts, qrLogins } from '../../shared/db/schema';
import { SCOPES } from '../../shared/sources/spotify/spotify-oauth';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  FAKE_LIBRESPOT,
  spotifySettings,
  storeSpotifySettings,
  useSpotifyApi,
} from '../helpers/spotify-api';

const spotify = useSpotifyApi();
let t: TestApp;
let admin: Session;
withAdminApp(
  (app, session) => {
    t = app;
    admin = session;
  },
  { env: { LIBRESPOT_PATH: FAKE_LIBRESPOT } },
);

/** Every answer body and Location header this file saw, to scan for secrets at the end. */
const seen: string[] = [];
async function call(path: string, session?: Session): Promise<Response> {
  const response = await t.fetch(new Request(`${TEST_ORIGIN}${path}`), session?.jar);
  seen.push(await response.clone().text(), response.headers.get('location') ?? '');
  return response;
}

async function loginUrl(): Promise<URL> {
  const response = await call('/api/spotify/login', admin);
  expect(response.status).toBe(200);
  const { url } = (await response.json()) as { url: string };
  return new URL(url);
}

/** Spotify's redirect back, followed by the browser (no session needed). */
async function callback(back: URL): Promise<Response> {
  return call(`${back.pathname}${back.search}`);
}

describe('while the spotify settings are not configured', () => {
  it('answers 404 on every route, also when enabled without a client id', async () => {
    for (const block of [spotifySettings({ enabled: false }), spotifySettings({ clientId: '' })]) {
      await storeSpotifySettings(t.db, block);
      for (const [path, session] of [
        ['/api/spotify/login', admin],
        ['/api/spotify/status', admin],
        ['/api/spotify/callback?code=x&state=y', undefined],
      ] as const) {
        const response = await call(path, session);
        expect(response.status, path).toBe(404);
        expect(await response.json()).toMatchObject({ error: 'Spotify is not configured' });
      }
    }
  });
});

describe('connecting an account', () => {
  it('answers the authorization page with PKCE (S256), the callback address and the playback scopes', async () => {
    await storeSpotifySettings(t.db, spotifySettings());
    const url = await loginUrl();
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.spotify.com/authorize');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${TEST_ORIGIN}/api/spotify/callback`,
      code_challenge_method: 'S256',
    });
    expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(q.state).toMatch(/^[\w-]{32}$/);
    expect(q.scope?.split(' ')).toEqual(
      expect.arrayContaining(['streaming', 'user-read-email', 'user-read-private']),
    );
    expect(q.scope?.split(' ')).toEqual([...SCOPES]);
    // The verifier stays on the server, kept under the state.
    const kept = await t.db.query.qrLogins.findFirst({ where: eq(qrLogins.key, q.state!) });
    expect(kept).toMatchObject({ platform: 'streaming_a', status: 'waiting' });
    const { verifier } = z.object({ verifier: z.string() }).parse(kept?.state);
    expect(url.href).not.toContain(verifier);
  });

  it('trades the code at the token endpoint, keeps the login and sends the browser back to settings', async () => {
    await storeSpotifySettings(t.db, spotifySettings());
    const back = spotify.approve((await loginUrl()).href);
    const response = await callback(back);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/settings?spotify=connected');

    const [exchange] = spotify.requests.filter((r) => r.path === '/api/token');
    expect(exchange?.body).toEqual({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: `${TEST_ORIGIN}/api/spotify/callback`,
      code_verifier: expect.stringMatching(/^[\w-]{43,128}$/),
      client_id: CLIENT_ID,
    });
    expect(exchange?.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    );
    const row = await t.db.query.platformAccounts.findFirst({
      where: eq(platformAccounts.platform, 'streaming_a'),
    });
    expect(row).toMatchObject({
      nickname: 'Dock Keeper',
      avatarUrl: 'https://i.scdn.example/image/keeper-300',
    });
    expect(JSON.parse(row!.credential)).toMatchObject({
      accessToken: expect.stringMatching(/^BQ/),
      refreshToken: expect.stringMatching(/^AQ/),
    });

    const status = await call('/api/spotify/status', admin);
    expect(await status.json()).toEqual({
      authorized: true,
      backend: 'librespot',
      deviceName: 'TS3 Music Bot',
      binaryAvailable: true,
      playerLogin: 'token',
    });
  });

  it('logs in as a public client (no secret) without client credentials', async () => {
    await storeSpotifySettings(t.db, spotifySettings({ clientSecret: '' }));
    spotify.setAppSecret('');
    try {
      const response = await callback(spotify.approve((await loginUrl()).href));
      expect(response.headers.get('location')).toBe('/settings?spotify=connected');
      const [exchange] = spotify.requests.filter((r) => r.path === '/api/token');
      expect(exchange?.authorization).toBeNull();
      expect(exchange?.body.client_id).toBe(CLIENT_ID);
    } finally {
      spotify.setAppSecret(CLIENT_SECRET);
    }
  });

  it('sends the browser back with a reason when the login fails', async () => {
    await storeSpotifySettings(t.db, spotifySettings());
    const denied = new URL((await loginUrl()).searchParams.get('redirect_uri')!);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', (await loginUrl()).searchParams.get('state')!);
    expect((await callback(denied)).headers.get('location')).toBe(
      '/settings?spotify=error&reason=access_denied',
    );

    const back = spotify.approve((await loginUrl()).href);
    spotify.answer('POST /api/token', () =>
      Response.json(
        { error: 'invalid_grant', error_description: 'Invalid authorization code' },
        { status: 400 },
      ),
    );
    expect((await callback(back)).headers.get('location')).toBe(
      '/settings?spotify=error&reason=token_exchange_failed',
    );
    // The attempt was used up: Spotify's redirect cannot be replayed.
    expect((await callback(back)).headers.get('location')).toBe(
      '/settings?spotify=error&reason=invalid_state',
    );
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-a-state-we-issued');
    expect((await callback(forged)).headers.get('location')).toBe(
      '/settings?spotify=error&reason=invalid_state',
    );
  });

  it('lets only platform.auth start a login, and no guest read the status', async () => {
    await storeSpotifySettings(t.db, spotifySettings());
    const member = await createMember(t, admin, { capabilities: ['player.control'] });
    expect((await call('/api/spotify/login', member)).status).toBe(403);
    expect((await call('/api/spotify/status', member)).status).toBe(200);
    expect((await call('/api/spotify/login')).status).toBe(401);
    expect((await call('/api/spotify/status')).status).toBe(401);
  });

  it('never answers a secret: no client secret, access or refresh token in any body or redirect', async () => {
    const settings = await call('/api/bot/settings', admin);
    expect(await settings.clone().json()).toMatchObject({ spotify: { hasClientSecret: true } });
    const secrets = spotify.secrets();
    expect(secrets.length).toBeGreaterThan(3);
    for (const text of seen) for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

describe('with PUBLIC_URL, BASE_PATH and no librespot', () => {
  let other: TestApp;
  let otherAdmin: Session;
  withAdminApp(
    (app, session) => {
      other = app;
      otherAdmin = session;
    },
    {
      env: {
        PUBLIC_URL: 'https://music.example.test/music-bot',
        BASE_PATH: '/music-bot',
        LIBRESPOT_PATH: '/nonexistent/librespot',
      },
    },
  );

  it('sends Spotify back under PUBLIC_URL, lands on settings under BASE_PATH, and says librespot is missing', async () => {
    await storeSpotifySettings(other.db, spotifySettings());
    const asked = await other.fetch(new Request(`${TEST_ORIGIN}/api/spotify/login`), otherAdmin.jar);
    const { url } = (await asked.json()) as { url: string };
    const back = spotify.approve(url);
    expect(`${back.origin}${back.pathname}`).toBe(
      'https://music.example.test/music-bot/api/spotify/callback',
    );
    const landed = await other.fetch(new Request(`${TEST_ORIGIN}/api/spotify/callback${back.search}`));
    expect(landed.headers.get('location')).toBe('/music-bot/settings?spotify=connected');
    const status = await other.fetch(new Request(`${TEST_ORIGIN}/api/spotify/status`), otherAdmin.jar);
    expect(await status.json()).toMatchObject({ authorized: true, binaryAvailable: false });
  });
});
