/**
 * /api/spotify: the app authorization (login kind `oauth`) of the Spotify account Spotify's source
 * plays with. The routes answer 404 while the `spotify` settings are not configured (see the
 * contracts for why they always exist).
 * Tokens are kept server-side only; a failed login is logged with Spotify's reason and shown to the
 * browser as a short code.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { spotifyCallback, spotifyLogin, spotifyStatus } from '../../openapi/routes/spotify';
import { logger } from '../../shared/logger';
import { readSettings } from '../../shared/settings/settings';
import { librespotStatus } from '../../shared/sources/spotify/librespot-status';
import { configuredSpotify, type SpotifySettings } from '../../shared/sources/spotify/spotify-config';
import { finishSpotifyLogin, startSpotifyLogin } from '../../shared/sources/spotify/spotify-login';
import { storedSpotifyTokens } from '../../shared/sources/spotify/spotify-token-store';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { settingsPage, spotifyRedirectUri } from './oauth-redirect-uri';

const log = logger('api.spotify');

export function spotifyRoutes({ db, config }: AppDeps) {
  /** The configured `spotify` block, or the 404 of an unmounted route. */
  const configured = async (): Promise<SpotifySettings> => {
    const settings = configuredSpotify((await readSettings(db)).spotify);
    if (!settings.ok) throw new ApiError(404, settings.error);
    return settings.value;
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
    .openapi(spotifyStatus, async (c) => {
      const settings = await configured();
      const [tokens, sidecar] = await Promise.all([
        storedSpotifyTokens(db).load(),
        librespotStatus(config.librespotPath),
      ]);
      return c.json(
        {
          authorized: tokens !== undefined,
          backend: settings.backend,
          deviceName: settings.deviceName,
          binaryAvailable: sidecar.available,
        },
        200,
      );
    });
}
