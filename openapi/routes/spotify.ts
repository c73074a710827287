/**
 * Streaming source login (SPEC.md "Streaming source login: /api/spotify"): connecting the Spotify
 * account the `oauth` platform plays with, by OAuth Authorization Code with PKCE.
 */
import { z } from '@hono/zod-openapi';
import { errors, jsonResponse } from '../errors';
import { platformsNamed } from '../platform-prose';
import { defineRoute } from '../policy';

/** The platform these routes log in (its facts name the `oauth` login). */
const OAUTH_PLATFORM = platformsNamed((f) => f.logins.includes('oauth'));

const MOUNTED_WHEN_CONFIGURED =
  'SPEC mounts these routes only while the `spotify` settings are configured (`enabled` and a ' +
  '`clientId`). Settings change at run time, so the routes always exist here and answer 404 ' +
  "`{error: 'Spotify is not configured'}` while they are not.";

const CallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

export const spotifyLogin = defineRoute({
  method: 'get',
  path: '/api/spotify/login',
  tags: ['Streaming source login'],
  summary: 'Start connecting a Spotify account',
  description:
    'Answers the Spotify authorization page to open in a browser (Authorization Code with PKCE, ' +
    'S256). Spotify sends the browser back to `/api/spotify/callback` under `PUBLIC_URL`, or under ' +
    'the address this request came to when `PUBLIC_URL` is unset; that address must be listed as a ' +
    `redirect URI of the Spotify app. The attempt lives ten minutes. ${MOUNTED_WHEN_CONFIGURED}`,
  policy: { access: 'authenticated', capability: 'platform.auth' },
  responses: {
    200: jsonResponse(
      z.object({ url: z.string().openapi({ example: 'https://accounts.spotify.com/authorize?…' }) }),
      'The authorization page',
    ),
    ...errors(404),
  },
});

export const spotifyCallback = defineRoute({
  method: 'get',
  path: '/api/spotify/callback',
  tags: ['Streaming source login'],
  summary: 'Where Spotify sends the browser back after authorization',
  description:
    'Finishes the attempt named by `state`: trades `code` for tokens, which are kept server-side as ' +
    `the shared ${OAUTH_PLATFORM} login and never returned, and redirects to the web UI settings page ` +
    '(`/settings` under `BASE_PATH`) with `?spotify=connected`, or `?spotify=error&reason=<code>`: ' +
    '`access_denied` (or another `error` Spotify sent), `invalid_state` (unknown, used or expired ' +
    `attempt), \`token_exchange_failed\`. ${MOUNTED_WHEN_CONFIGURED}`,
  policy: { access: 'public' },
  request: { query: CallbackQuerySchema },
  responses: {
    302: {
      description: 'Back to the web UI settings page',
      headers: z.object({ location: z.string().openapi({ example: '/settings?spotify=connected' }) }),
    },
    ...errors(400, 404),
  },
});

export const SpotifyStatusSchema = z
  .object({
    authorized: z.boolean().openapi({ description: 'A Spotify account is connected' }),
    backend: z.enum(['librespot']).openapi({ description: `The audio sidecar that plays ${OAUTH_PLATFORM}` }),
    deviceName: z.string().openapi({ description: 'The Spotify Connect device name the sidecar uses' }),
    binaryAvailable: z
      .boolean()
      .openapi({ description: 'The sidecar runs here (`LIBRESPOT_PATH`, else `librespot` on PATH)' }),
  })
  .openapi('SpotifyStatus');

export const spotifyStatus = defineRoute({
  method: 'get',
  path: '/api/spotify/status',
  tags: ['Streaming source login'],
  summary: 'Whether Spotify is connected and its sidecar installed',
  description: `The sidecar is detected again at most every 30 s. ${MOUNTED_WHEN_CONFIGURED}`,
  policy: { access: 'authenticated', nonGuest: true },
  responses: {
    200: jsonResponse(SpotifyStatusSchema, 'The Spotify login and sidecar'),
    ...errors(404),
  },
});
