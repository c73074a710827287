/**
 * /api/spotify: the app authorization (login kind `oauth`) of the Spotify account Spotify's source
 * plays with. The routes answer 404 while the `spotify` settings are not configured (see the
 * contracts for why they always exist).
 * Tokens are kept server-side only; a failed login is logged with Spotify's reason and shown to the
 * browser as a short code.
 *
 * /api/spotify/librespot: librespot's own login (librespot-oauth-login.ts), the other way librespot
 * logs in when Spotify turns the token away. It runs librespot in this process, which keeps the
 * credentials under this process's DATA_DIR: the daemons of `make run` share it.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import {
  librespotLoginFinish,
  librespotLoginForget,
  librespotLoginStart,
  spotifyCallback,
  spotifyLogin,
  spotifyStatus,
} from '../../openapi/routes/spotify';
import { type Phrase, say } from '../../shared/i18n/phrases';
import { logger } from '../../shared/logger';
import { readSettings } from '../../shared/settings/settings';
import { LibrespotCredentials } from '../../shared/sources/spotify/librespot-credentials';
import {
  LibrespotOAuthLogin,
  loginDeviceName,
  type OAuthLoginFailure,
} from '../../shared/sources/spotify/librespot-oauth-login';
import { librespotStatus } from '../../shared/sources/spotify/librespot-status';
import { configuredSpotify, type SpotifySettings } from '../../shared/sources/spotify/spotify-config';
import { finishSpotifyLogin, startSpotifyLogin } from '../../shared/sources/spotify/spotify-login';
import { storedSpotifyTokens } from '../../shared/sources/spotify/spotify-token-store';
import { type Principal, principalOf } from '../access/principal';
import { recordAudit } from '../audit/audit-log';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { settingsPage, spotifyRedirectUri } from './oauth-redirect-uri';

const log = logger('api.spotify');

/** A failed step of librespot's own login, as the API answers it. */
function loginFailure(failure: OAuthLoginFailure): ApiError {
  const answers: Record<OAuthLoginFailure['kind'], [400 | 409 | 502, Phrase]> = {
    noAttempt: [409, say.librespotLoginNone()],
    badAddress: [400, say.librespotLoginBadAddress()],
    otherAttempt: [400, say.librespotLoginOtherAttempt()],
    denied: [400, say.librespotLoginDenied('detail' in failure ? failure.detail : '')],
    failed: [502, say.librespotLoginFailed('detail' in failure ? failure.detail : '')],
  };
  const [status, phrase] = answers[failure.kind];
  return new ApiError(status, phrase);
}

const party = (p: Principal) => ({ id: p.userId, username: p.username });

export function spotifyRoutes({ db, config }: AppDeps) {
  /** The configured `spotify` block, or the 404 of an unmounted route. */
  const configured = async (): Promise<SpotifySettings> => {
    const settings = configuredSpotify((await readSettings(db)).spotify);
    if (!settings.ok) throw new ApiError(404, settings.error);
    return settings.value;
  };
  const credentials = new LibrespotCredentials(config.dataDir);
  let playerLogin: LibrespotOAuthLogin | undefined;

  const status = async (settings: SpotifySettings) => {
    const [tokens, sidecar, kept] = await Promise.all([
      storedSpotifyTokens(db).load(),
      librespotStatus(config.librespotPath),
      credentials.read(),
    ]);
    return {
      authorized: tokens !== undefined,
      backend: settings.backend,
      deviceName: settings.deviceName,
      binaryAvailable: sidecar.available,
      playerLogin: kept === undefined ? ('token' as const) : ('librespot' as const),
    };
  };

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(spotifyLogin, async (c) => {
      const settings = await configured();
      return c.json({ url: await startSpotifyLogin(db, settings, spotifyRedirectUri(c, config)) }, 200);
    })
    .openapi(spotifyCallback, async (c) => {
      const settings = await configured();
      const finished = await finishSpotifyLogin(db, settings, c.req.valid('query'));
      if (finished.ok) {
        log.info({ nickname: finished.value.nickname }, 'Spotify account connected');
        return c.redirect(settingsPage(config, { spotify: 'connected' }), 302);
      }
      log.warn({ reason: finished.error.reason }, finished.error.message);
      return c.redirect(settingsPage(config, { spotify: 'error', reason: finished.error.reason }), 302);
    })
    .openapi(spotifyStatus, async (c) => c.json(await status(await configured()), 200))
    .openapi(librespotLoginStart, async (c) => {
      const settings = await configured();
      playerLogin?.end();
      playerLogin = new LibrespotOAuthLogin({
        path: config.librespotPath,
        credentials,
        deviceName: loginDeviceName(settings.deviceName),
      });
      const started = await playerLogin.start();
      if (!started.ok) {
        log.warn({ failure: started.error }, 'librespot’s own login could not start');
        throw loginFailure(started.error);
      }
      return c.json(started.value, 200);
    })
    .openapi(librespotLoginFinish, async (c) => {
      const settings = await configured();
      const finished = playerLogin
        ? await playerLogin.finish(c.req.valid('json').redirectUrl)
        : ({ ok: false, error: { kind: 'noAttempt' } } as const);
      if (!finished.ok) {
        // The kind only: the pasted address holds a one-time code.
        log.warn({ failure: finished.error.kind }, 'librespot’s own login was not made');
        throw loginFailure(finished.error);
      }
      await recordAudit(db, 'spotify.librespot_login', party(principalOf(c)), null);
      log.info('librespot’s own login is kept; librespot plays with it');
      return c.json(await status(settings), 200);
    })
    .openapi(librespotLoginForget, async (c) => {
      const settings = await configured();
      playerLogin?.end();
      if ((await credentials.read()) !== undefined) {
        await credentials.forget();
        await recordAudit(db, 'spotify.librespot_logout', party(principalOf(c)), null);
        log.info('librespot’s own login forgotten; librespot plays with the token again');
      }
      return c.json(await status(settings), 200);
    });
}
