/**
 * A stand-in for Spotify (msw): the Accounts service (`/authorize` as a user who approves, and
 * `/api/token`) and the Web API at https://api.spotify.com/v1 as it answers an app in Development
 * Mode since February 2026, plus the fake librespot's Connect registrations
 * (tests/fakes/librespot.mjs). Like Spotify it checks what the requests carry: the PKCE challenge
 * against the verifier, the redirect address the code was issued for, the client's Basic credentials
 * when the app has a secret, a refresh token it issued; a Web API call needs a live access token (an
 * expired or unknown one answers 401 `{error: {status, message}}`). Known query names only, so a
 * misspelt one fails a test, and Spotify's limits: a search page of more than 10 or past offset 1000,
 * or another page of more than 50, is a 400; the removed `GET /playlists/{id}/tracks` is a 403, as are
 * the items of a playlist the account does not own. Search results and playlist entries are paged by
 * `offset` and `limit` like Spotify's, and `fields` picks the fields asked for. Answers come from
 * tests/fixtures/spotify (see its README).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll } from 'vitest';
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
/** The playlist the connected account owns, and one it only follows. */
export const OWN_PLAYLIST = '3PlaylistCrossings0001';
export const FOLLOWED_PLAYLIST = '3PlaylistMorningTide01';
const SEARCH_KEYS = { track: 'tracks', album: 'albums', playlist: 'playlists' } as const;
type SearchType = keyof typeof SEARCH_KEYS;

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

const count = (max: number) => z.string().regex(/^\d+$/).transform(Number).pipe(z.number().max(max));
const WEB_QUERY: Record<string, z.ZodType> = {
  q: z.string().min(1),
  type: z.enum(['track', 'album', 'playlist']),
  // Search for Item: 0-10 (February 2026), offset 0-1000; every other paged call: 0-50.
  limit: count(50),
  offset: z.string().regex(/^\d+$/),
  market: z.literal('from_token'),
  fields: z.string().regex(/^[\w.,]+$/),
  device_id: z.string(),
};
const SEARCH_QUERY: Record<string, z.ZodType> = { ...WEB_QUERY, limit: count(10), offset: count(1000) };

interface Paging {
  href: string;
  items: unknown[];
  limit: number;
  next: string | null;
  offset: number;
  previous: string | null;
  total: number;
}

/** The page of `all` a request asks for (`offset`, `limit` default 20), as Spotify's paging object. */
function pageOf(
  all: readonly unknown[],
  url: string,
  query: Record<string, string>,
  defaultLimit = 20,
): Paging {
  const offset = Number(query.offset ?? 0);
  const limit = Number(query.limit ?? defaultLimit);
  const at = (start: number) => {
    const link = new URL(url);
    link.searchParams.set('offset', String(start));
    link.searchParams.set('limit', String(limit));
    return link.toString();
  };
  return {
    href: at(offset),
    items: all.slice(offset, offset + limit),
    limit,
    next: offset + limit < all.length ? at(offset + limit) : null,
    offset,
    previous: offset > 0 ? at(Math.max(offset - limit, 0)) : null,
    total: all.length,
  };
}

/** Spotify's `fields` filter for plain and dotted names (`id,items.total`). */
function pickFields(value: Record<string, unknown>, fields: string | undefined): Record<string, unknown> {
  if (fields === undefined) return value;
  const picked: Record<string, unknown> = {};
  for (const field of fields.split(',')) {
    const [head = '', ...rest] = field.split('.');
    if (!(head in value)) continue;
    const inner = value[head];
    picked[head] =
      rest.length > 0 && inner && typeof inner === 'object'
        ? { ...(picked[head] as object), ...pickFields(inner as Record<string, unknown>, rest.join('.')) }
        : inner;
  }
  return picked;
}

interface CodeGrant {
  challenge: string;
  redirectUri: string;
  clientId: string;
}

export interface Registration {
  pid: number;
  name: string;
  /** How the run logged in: the token it was handed, or the credentials kept in its cache. */
  accessToken?: string;
  credentials?: { username: string; auth_data: string };
  args: string[];
}

export function useSpotifyApi() {
  const stub = usePlatformStub<SpotifyRequest>();
  /** What a search finds, by type: the fixture's results unless a test asks for more. */
  const searchFixture = spotifyFixture('search') as Record<string, { items: unknown[] }>;
  const fixtureMatches = (type: SearchType) => searchFixture[SEARCH_KEYS[type]]?.items ?? [];
  const matches = new Map<SearchType, unknown[]>();
  afterEach(() => matches.clear());
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
    answer: (asked: SpotifyRequest, params: Record<string, string>, url: string) => Response,
  ) =>
    http[method](`${WEB_API}${path}`, async ({ request, params }) => {
      const asked = await logged(request, new URL(request.url).pathname);
      return stub.reply(`${request.method} ${path}`, asked, () => {
        const token = asked.authorization?.match(/^Bearer (\S+)$/)?.[1];
        const expiry = token === undefined ? undefined : accessTokens.get(token);
        if (expiry === undefined) return webApiError(401, 'Invalid access token');
        if (expiry <= Date.now()) return webApiError(401, 'The access token expired');
        const known = path === '/search' ? SEARCH_QUERY : WEB_QUERY;
        for (const [name, value] of Object.entries(asked.query))
          if (!known[name]?.safeParse(value).success) return webApiError(400, `Invalid ${name}`);
        return answer(asked, params as Record<string, string>, request.url);
      });
    });

  const search = (asked: SpotifyRequest, _: unknown, url: string) => {
    const type = asked.query.type as SearchType | undefined;
    if (!type || !asked.query.q) return webApiError(400, 'Missing parameter type or q');
    const all = matches.get(type) ?? fixtureMatches(type);
    return HttpResponse.json({ [SEARCH_KEYS[type]]: pageOf(all, url, asked.query, 5) });
  };

  const playlistEntries = () => (spotifyFixture('playlist-items') as { items: unknown[] }).items;
  const ownPlaylist = (url: string) => ({
    ...(spotifyFixture('playlist') as object),
    items: pageOf(playlistEntries(), `${url.split('?')[0]}/items`, {}, 100),
  });

  const playlist = (asked: SpotifyRequest, params: Record<string, string>, url: string) => {
    if (!ID.test(params.id ?? '')) return webApiError(400, 'Invalid base62 id');
    const found =
      params.id === OWN_PLAYLIST
        ? ownPlaylist(url)
        : params.id === FOLLOWED_PLAYLIST
          ? spotifyFixture('playlist-followed')
          : undefined;
    if (!found) return webApiError(404, 'Resource not found');
    return HttpResponse.json(pickFields(found as Record<string, unknown>, asked.query.fields));
  };

  const playlistItems = (asked: SpotifyRequest, params: Record<string, string>, url: string) => {
    if (!ID.test(params.id ?? '')) return webApiError(400, 'Invalid base62 id');
    if (params.id === FOLLOWED_PLAYLIST) return webApiError(403, 'Forbidden');
    if (params.id !== OWN_PLAYLIST) return webApiError(404, 'Resource not found');
    return HttpResponse.json(
      pickFields({ ...pageOf(playlistEntries(), url, asked.query) }, asked.query.fields),
    );
  };

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
    web('get', '/search', search),
    web('get', '/tracks/:id', byId('track', '4TrackNightFerry000001')),
    web('get', '/albums/:id', byId('album', '1AlbumHarborLights0001')),
    web('get', '/albums/:id/tracks', byId('album-tracks', '1AlbumHarborLights0001')),
    web('get', '/playlists/:id', playlist),
    web('get', '/playlists/:id/items', playlistItems),
    // Removed for Development Mode apps in March 2026: Spotify answers 403 Forbidden.
    web('get', '/playlists/:id/tracks', () => webApiError(403, 'Forbidden')),
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
    /** For the rest of this test, a track search finds `count` tracks (copies of the fixture's first). */
    findTracks(count: number) {
      const [first] = fixtureMatches('track') as Record<string, unknown>[];
      const made = Array.from({ length: count }, (_, i) => {
        const id = `4TrackFound${String(i).padStart(11, '0')}`;
        return { ...first, id, name: `Found ${i}`, uri: `spotify:track:${id}` };
      });
      matches.set('track', made);
    },
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
