/**
 * Which Jellyfin server the `library_a` source talks to and how it logs in, read from the global
 * settings' `jellyfin` block `{serverUrl, authMode, username, password}`. In `apikey` mode the
 * `password` field holds the API key: the settings have no separate key field (SPEC's settings
 * payload names only these four), so the one secret field carries whichever secret the mode needs.
 * An empty server URL is a readable "not configured", never a crash.
 */
import type { Db } from '../../db/client';
import { err, ok, type Result } from '../../result';
import { readSettings, type StoredSettings } from '../../settings/settings';

export const NOT_CONFIGURED = 'Jellyfin is not configured';

export type JellyfinAuthMode = StoredSettings['jellyfin']['authMode'];

/** How to obtain a token: a user's password, or an API key acting as a user (named, by id, or the first admin). */
export type JellyfinCredentials =
  | { mode: 'password'; username: string; password: string }
  | { mode: 'apikey'; apiKey: string; username: string; userId?: string | undefined };

export interface JellyfinConfig {
  /** Without a trailing slash; may carry a base path (`https://host/jellyfin`). */
  serverUrl: string;
  credentials: JellyfinCredentials;
}

export type JellyfinConfigLookup = () => Promise<Result<JellyfinConfig>>;

export function normalizeServerUrl(raw: string): Result<string> {
  const trimmed = raw.trim();
  if (!trimmed) return err(NOT_CONFIGURED);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return err(`the Jellyfin server address ${trimmed} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return err(`the Jellyfin server address ${trimmed} is not an http(s) URL`);
  return ok(`${url.origin}${url.pathname}`.replace(/\/+$/, ''));
}

/** `secret` is the password or the API key, as the mode says. Jellyfin allows empty passwords. */
export function jellyfinCredentials(
  mode: JellyfinAuthMode,
  username: string,
  secret: string,
  userId?: string,
): Result<JellyfinCredentials> {
  const name = username.trim();
  if (mode === 'apikey')
    return secret
      ? ok({ mode, apiKey: secret, username: name, userId })
      : err(`${NOT_CONFIGURED}: no API key`);
  return name ? ok({ mode, username: name, password: secret }) : err(`${NOT_CONFIGURED}: no username`);
}

export function jellyfinConfig(settings: StoredSettings['jellyfin']): Result<JellyfinConfig> {
  const serverUrl = normalizeServerUrl(settings.serverUrl);
  if (!serverUrl.ok) return serverUrl;
  const credentials = jellyfinCredentials(settings.authMode, settings.username, settings.password);
  return credentials.ok ? ok({ serverUrl: serverUrl.value, credentials: credentials.value }) : credentials;
}

/** Read on every call, so a settings change takes effect without a restart. */
export function storedJellyfinConfig(db: Db): JellyfinConfigLookup {
  return async () => jellyfinConfig((await readSettings(db)).jellyfin);
}
