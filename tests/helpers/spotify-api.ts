/**
 * A stand-in for Spotify (msw): the Accounts service (`/authorize` as a user who approves, and
 * `/api/token`) and the Web API at https://api.spotify.com/v1, plus the fake librespot's Connect
 * registrations (tests/fakes/librespot.mjs). Like Spotify it checks what the requests carry: the
 * PKCE challenge against the verifier, the redirect address the code was issued for, the client's
 * Basic credentials when the app has a secret, a refresh token it issued; a Web API call needs a live
 * access token (an expired or unknown one answers 401 `{error: {status, message}}`). Known query names
 * only, so a misspelt one fails a test. Answers come from tests/fixtures/spotify (see its README).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import type { Db } from '../../shared/db/client';
import { platformAccounts } from '../../shared/db/schema';
import type { StoredSettings } from '../../shared/settings/settings';
import { upsertSetting } from '../../shared/settings/stored-value';
import { SCOPES } from '../../shared/sources/spotify/spotify-oauth';
import { useMswServer } from './msw-server';
import { readFixture, usePlatformStub } from './platform-stub';

export const CLIENT_ID = 'c0ffee00c0ffee00c0ffee00c0ffee00';
export const CLIENT_SECRET = 'shh-client-secret-5f1d0e6a';
export const FAKE_LIBRESPOT = fileURLToPath(new URL('../fakes/librespot.mjs', import.meta.url));
const WEB_API = 'https://api.spotify.com/v1';
const ACCOUNTS = 'https://accounts.spotify.com';
const ID = /^[0-9A-Za-z]{22}$/;

/** The settings' `spotify` block of a configured bot (with or without the client secret). */
export const spotifySettings = (
  overrides: Partial<StoredSettings['spotify']> = {},
): StoredSettings['spotify'] => ({
  enabled: true,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  backend: 'librespot',
  bitrate: 320,
  deviceName: 'TS3 Music Bot',
  ...overrides,
});

export const storeSpotifySettings = (db: Db, block: StoredSettings['spotify']) =>
  upsertSetting(db, 'spotify', block);

export const spotifyFixture = (name: string): unknown => readFixture('spotify', name);

export interface SpotifyRequest {
  method: string;
  /** `/v1/...` for the Web API, `/api/token` for the Accounts service. */
  path: string;
  query: Record<string, string>;
  /** The form of a token request, the JSON of a player command. */
  body: Record<string, unknown>;
  authorization: string | null;
}

const WEB_QUERY: Record<string, z.ZodType> = {
  q: z.string().min(1),
  type: z.enum(['track', 'album', 'playlist']),
  limit: z.string().regex(/^\d+$/),
  offset: z.string().regex(/^\d+$/),
  market: z.literal('from_token'),
  fields: z.string(),
  device_id: z.string(),
};

interface CodeGrant {
  challenge: string;
  redirectUri: string;
  clientId: string;
}

export interface Registration {
  pid: number;
  name: string;
  accessToken: string;
  args: string[];
}

export function useSpotifyApi() {
  const stub = usePlatformStub<SpotifyRequest>();
  const codes = new Map<string, CodeGrant>();
  /** Live access tokens → their expiry (epoch ms). */
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  /** The app's secret Spotify knows; '' for an app used as a public client. */
  let appSecret = CLIENT_SECRET;
  const devicesDir = mkdtempSync(join(tmpdir(), 'fake-librespot-'));
  beforeAll(() => {
    process.env.FAKE_LIBRESPOT_DIR = devicesDir;
  });
  afterAll(() => rmSync(devicesDir, { recursive: true, force: true }));

  const issueTokens = (refreshToken?: string) => {
    const access = `BQ${randomBytes(24).toString('base64url')}`;
    accessTokens.set(access, Date.now() + 3600_000);
    const refresh = refreshToken ?? `AQ${randomBytes(24).toString('base64url')}`;
    refreshTokens.add(refresh);
    return { ...(spotifyFixture('token') as object), access_token: access, refresh_token: refresh };
  };

  const logged = async (request: Request, path: string): Promise<SpotifyRequest> => {
    const url = new URL(request.url);
    const text = await request.text();
    const form = request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded');
    const asked: SpotifyRequest = {
      method: request.method,
      path,
      query: Object.fromEntries(url.searchParams),
      body: text ? (form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text)) : {},
      authorization: request.headers.get('authorization'),
    };
    stub.requests.push(asked);
    return asked;
  };

  const tokenRefusal = (error: string, description: string) =>
    HttpResponse.json({ error, error_description: description }, { status: 400 });

  const tokenEndpoint = http.post(`${ACCOUNTS}/api/token`, async ({ request }) => {
    const asked = await logged(request, '/api/token');
    return stub.reply('POST /api/token', asked, () => {
      const form = asked.body as Record<string, string>;
      if (form.client_id !== CLIENT_ID) return tokenRefusal('invalid_client', 'Invalid client');
      const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${appSecret}`).toString('base64')}`;
      if (appSecret && asked.authorization !== basic)
        return tokenRefusal('invalid_client', 'Invalid client secret');
      if (form.grant_type === 'authorization_code') {
        const grant = codes.get(form.code ?? '');
        codes.delete(form.code ?? '');
        if (!grant) return tokenRefusal('invalid_grant', 'Invalid authorization code');
        if (grant.redirectUri !== form.redirect_uri)
          return tokenRefusal('invalid_grant', 'Invalid redirect URI');
        const challenge = createHash('sha256')
          .update(form.code_verifier ?? '')
          .digest('base64url');
        if (challenge !== grant.challenge)
          return tokenRefusal('invalid_grant', 'code_verifier was incorrect');
        return HttpResponse.json(issueTokens());
      }
      if (form.grant_type === 'refresh_token') {
        if (!refreshTokens.has(form.refresh_token ?? ''))
          return tokenRefusal('invalid_grant', 'Invalid refresh token');
        // Spotify may leave the refresh token out of a refresh answer: the held one stays valid.
        const { refresh_token: _, ...answer } = issueTokens(form.refresh_token);
        return HttpResponse.json(answer);
      }
      return tokenRefusal(
        'unsupported_grant_type',
        'grant_type must be client_credentials, authorization_code or refresh_token',
      );
    });
  });

  const webApiError = (status: number, message: string) =>
    HttpResponse.json({ error: { status, message } }, { status });

  const web = (
    method: 'get' | 'put',
    path: string,
    answer: (asked: SpotifyRequest, params: Record<string, string>) => Response,
  ) =>
    http[method](`${WEB_API}${path}`, async ({ request, params }) => {
      const asked = await logged(request, new URL(request.url).pathname);
      return stub.reply(`${request.method} ${path}`, asked, () => {
        const token = asked.authorization?.match(/^Bearer (\S+)$/)?.[1];
        const expiry = token === undefined ? undefined : accessTokens.get(token);
        if (expiry === undefined) return webApiError(401, 'Invalid access token');
        if (expiry <= Date.now()) return webApiError(401, 'The access token expired');
        for (const [name, value] of Object.entries(asked.query))
          if (!WEB_QUERY[name]?.safeParse(value).success) return webApiError(400, `Invalid ${name}`);
        return answer(asked, params as Record<string, string>);
      });
    });

  const byId = (fixture: string, id: string) => (_: SpotifyRequest, params: Record<string, string>) => {
    if (!ID.test(params.id ?? '')) return webApiError(400, 'Invalid base62 id');
    return params.id === id
      ? HttpResponse.json(spotifyFixture(fixture) as object)
      : webApiError(404, 'Resource not found');
  };

  const registrations = (): Registration[] =>
    readdirSync(devicesDir)
      .filter((file) => /^\d+\.json$/.test(file))
      .map((file) => JSON.parse(readFileSync(join(devicesDir, file), 'utf8')) as Registration)
      .filter((r) => {
        try {
          process.kill(r.pid, 0);
          return true;
        } catch {
          return false;
        }
      });

  useMswServer(
    tokenEndpoint,
    web('get', '/search', () => HttpResponse.json(spotifyFixture('search') as object)),
    web('get', '/tracks/:id', byId('track', '4TrackNightFerry000001')),
    web('get', '/albums/:id', byId('album', '1AlbumHarborLights0001')),
    web('get', '/albums/:id/tracks', byId('album-tracks', '1AlbumHarborLights0001')),
    web('get', '/playlists/:id', byId('playlist', '3PlaylistCrossings0001')),
    web('get', '/playlists/:id/tracks', byId('playlist-tracks', '3PlaylistCrossings0001')),
    web('get', '/me', () => HttpResponse.json(spotifyFixture('me') as object)),
    web('get', '/me/playlists', () => HttpResponse.json(spotifyFixture('me-playlists') as object)),
    web('get', '/me/player/devices', () =>
      HttpResponse.json({
        devices: registrations().map((r) => ({
          id: `device-${r.pid}`,
          is_active: existsSync(join(devicesDir, `${r.pid}.play.json`)),
          is_private_session: false,
          is_restricted: false,
          name: r.name,
          type: 'Speaker',
          volume_percent: 100,
          supports_volume: true,
        })),
      }),
    ),
    web('put', '/me/player/play', (asked) => {
      const pid = /^device-(\d+)$/.exec(asked.query.device_id ?? '')?.[1];
      const known = registrations().some((r) => String(r.pid) === pid);
      if (!pid || !known) return webApiError(404, 'Device not found');
      const uris = z
        .object({ uris: z.array(z.string().regex(/^spotify:track:[0-9A-Za-z]{22}$/)).min(1) })
        .safeParse(asked.body);
      if (!uris.success) return webApiError(400, 'Malformed json');
      writeFileSync(join(devicesDir, `${pid}.play.json`), JSON.stringify(uris.data));
      return new HttpResponse(null, { status: 204 });
    }),
  );

  return {
    ...stub,
    /** The fake librespot runs still registered (alive). */
    registrations,
    /** Makes the Spotify app a public client (no secret) or a confidential one. */
    setAppSecret(secret: string) {
      appSecret = secret;
    },
    /**
     * A user opening the authorization page and approving: checks its parameters like Spotify and
     * answers the redirect address with `code` and `state`.
     */
    approve(authorizeUrl: string): URL {
      const url = new URL(authorizeUrl);
      const q = Object.fromEntries(url.searchParams);
      if (`${url.origin}${url.pathname}` !== `${ACCOUNTS}/authorize`)
        throw new Error(`not Spotify: ${authorizeUrl}`);
      if (q.client_id !== CLIENT_ID || q.response_type !== 'code' || q.code_challenge_method !== 'S256')
        throw new Error(`Spotify would refuse ${authorizeUrl}`);
      if (!/^[\w-]{43}$/.test(q.code_challenge ?? '') || !q.state || !q.redirect_uri)
        throw new Error(`Spotify would refuse ${authorizeUrl}`);
      const code = `AQC${randomBytes(16).toString('base64url')}`;
      codes.set(code, { challenge: q.code_challenge!, redirectUri: q.redirect_uri, clientId: q.client_id });
      const back = new URL(q.redirect_uri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.state);
      return back;
    },
    /** Every access token handed out so far stops working (an hour has passed). */
    expireAccessTokens() {
      for (const token of accessTokens.keys()) accessTokens.set(token, Date.now() - 1);
    },
    /** A login as if made earlier: tokens Spotify knows, kept in `platform_accounts`. */
    async storeLogin(db: Db, { expired = false } = {}) {
      const answer = issueTokens();
      if (expired) accessTokens.set(answer.access_token, Date.now() - 1);
      const tokens = {
        accessToken: answer.access_token,
        refreshToken: answer.refresh_token,
        expiresAt: expired ? Date.now() - 1000 : Date.now() + 3600_000,
        scope: SCOPES.join(' '),
      };
      const row = {
        credential: JSON.stringify(tokens),
        nickname: 'Dock Keeper',
        avatarUrl: null,
        updatedAt: new Date(),
      };
      await db
        .insert(platformAccounts)
        .values({ platform: 'streaming_a', ...row })
        .onConflictDoUpdate({ target: platformAccounts.platform, set: row });
      return tokens;
    },
    /** The access tokens and refresh tokens handed out (to scan answers for). */
    secrets(): string[] {
      return [...accessTokens.keys(), ...refreshTokens, CLIENT_SECRET];
    },
  };
}
