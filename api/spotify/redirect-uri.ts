/**
 * Where Spotify sends the browser back to, and where the browser then lands: `PUBLIC_URL` when set
 * (the address people reach the service at, base path included), else the address the login request
 * came to — read from `X-Forwarded-Proto`/`-Host` behind a trusted proxy — under `BASE_PATH`.
 */
import type { Context } from 'hono';
import type { AppConfig } from '../../shared/config';
import { isHttps } from '../auth/sessions';
import type { AppEnv } from '../env';

export const CALLBACK_PATH = '/api/spotify/callback';

export function spotifyRedirectUri(c: Context<AppEnv>, config: AppConfig): string {
  if (config.publicUrl) return `${config.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;
  const forwardedHost = config.trustProxy
    ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim()
    : undefined;
  const host = forwardedHost || c.req.header('host') || new URL(c.req.url).host;
  const scheme = isHttps(c, config.trustProxy) ? 'https' : 'http';
  return `${scheme}://${host}${config.basePath}${CALLBACK_PATH}`;
}

/** The web UI's settings page with the outcome in its query. */
export function settingsPage(config: AppConfig, outcome: Record<string, string>): string {
  return `${config.basePath}/settings?${new URLSearchParams(outcome)}`;
}
