/**
 * Whether the `streaming_a` source may be used, read from the global settings' `spotify` block
 * `{enabled, clientId, clientSecret, backend, bitrate, deviceName}`: it is configured when it is
 * enabled and names the client id of a Spotify app (developer.spotify.com/dashboard). The client
 * secret is optional: with PKCE a public client needs none, and when one is set it is sent to
 * Spotify's token endpoint only.
 */
import type { Db } from '../../db/client';
import { err, ok, type Result } from '../../result';
import { readSettings, type StoredSettings } from '../../settings/settings';

export const NOT_CONFIGURED = 'Spotify is not configured';

export type SpotifySettings = StoredSettings['spotify'];
export type SpotifySettingsLookup = () => Promise<SpotifySettings>;

/** The settings block when it is configured, else the readable "not configured". */
export function configuredSpotify(settings: SpotifySettings): Result<SpotifySettings> {
  return settings.enabled && settings.clientId.trim() !== ''
    ? ok({ ...settings, clientId: settings.clientId.trim() })
    : err(NOT_CONFIGURED);
}

/** The block as stored now: settings change at run time, so it is read on every use. */
export const storedSpotifySettings =
  (db: Db): SpotifySettingsLookup =>
  async () =>
    (await readSettings(db)).spotify;
