/**
 * Streaming source login (SPEC.md "Streaming source login: /api/spotify"): connecting the Spotify
 * account the `oauth` platform plays with, by OAuth Authorization Code with PKCE.
 */
import { z } from '@hono/zod-openapi';
import { errors, jsonBody, jsonResponse } from '../errors';
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
    playerLogin: z.enum(['token', 'librespot']).openapi({
      description:
        'How the sidecar logs in to play: `token`, the connected account’s access token; `librespot`, ' +
        'librespot’s own login kept on the server (`/api/spotify/librespot/login`)',
    }),
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

const PLAYER_LOGIN =
  'librespot, which plays Spotify, logs in with the connected account’s access token, which Spotify ' +
  'may refuse to a Development-Mode app of your own. The other way is librespot’s own login ' +
  '(`librespot --enable-oauth`): the server starts librespot, which prints an authorization address ' +
  'to open; after signing in, the browser is sent to `http://127.0.0.1:<port>/login?code=…`, which ' +
  'it cannot load; that address is pasted back, and the server hands its `code` and `state` to ' +
  'librespot on its own loopback. librespot’s reusable credentials are then kept under `DATA_DIR` ' +
  '(never answered, never logged) and every librespot run uses them instead of the token.';

export const librespotLoginStart = defineRoute({
  method: 'post',
  path: '/api/spotify/librespot/login',
  tags: ['Streaming source login'],
  summary: 'Start librespot’s own login',
  description:
    `${PLAYER_LOGIN} This starts librespot’s login (ending one under way) and answers the address ` +
    'it printed. The attempt lasts ten minutes. Admins only; the credentials are made only once the ' +
    `redirect is pasted (\`/api/spotify/librespot/callback\`). ${MOUNTED_WHEN_CONFIGURED}`,
  policy: { access: 'admin' },
  responses: {
    200: jsonResponse(
      z.object({ url: z.string().openapi({ example: 'https://accounts.spotify.com/authorize?…' }) }),
      'The authorization address librespot printed',
    ),
    ...errors(404, 502),
  },
});

export const librespotLoginFinish = defineRoute({
  method: 'post',
  path: '/api/spotify/librespot/callback',
  tags: ['Streaming source login'],
  summary: 'Finish librespot’s own login with the pasted redirect',
  description:
    'Takes the address the browser ended on after signing in at the authorization address ' +
    '(`http://127.0.0.1:<port>/login?code=…&state=…`); only its `code` and `state` are used, ' +
    'handed to librespot on 127.0.0.1, whatever host the address names. Answers the status once ' +
    'librespot has logged in and its credentials are kept, and records `spotify.librespot_login` in ' +
    'the audit log. 400: not such an address (`librespotLoginBadAddress`), the address of another ' +
    'attempt (`librespotLoginOtherAttempt`), Spotify refused (`librespotLoginDenied`); 409: no attempt ' +
    `under way (\`librespotLoginNone\`); 502: librespot failed (\`librespotLoginFailed\`). ${MOUNTED_WHEN_CONFIGURED}`,
  policy: { access: 'admin' },
  request: {
    body: jsonBody(
      z
        .object({
          redirectUrl: z
            .string()
            .min(1)
            .max(8192)
            .openapi({ example: 'http://127.0.0.1:38111/login?code=AQB…&state=q9…' }),
        })
        .strict(),
    ),
  },
  responses: {
    200: jsonResponse(SpotifyStatusSchema, 'librespot’s own login is kept and used'),
    ...errors(400, 404, 409, 502),
  },
});

export const librespotLoginForget = defineRoute({
  method: 'delete',
  path: '/api/spotify/librespot/login',
  tags: ['Streaming source login'],
  summary: 'Forget librespot’s own login',
  description:
    'Deletes the kept librespot credentials (and ends an attempt under way); librespot logs in with ' +
    'the connected account’s token again. Records `spotify.librespot_logout` in the audit log when ' +
    `a login was kept. ${MOUNTED_WHEN_CONFIGURED}`,
  policy: { access: 'admin' },
  responses: {
    200: jsonResponse(SpotifyStatusSchema, 'The status, librespot logging in with the token'),
    ...errors(404),
  },
});
