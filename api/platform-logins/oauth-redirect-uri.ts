/**
 * Where Spotify sends the browser back to, and where the browser then lands: `PUBLIC_URL` when set
 * (the address people reach the service at, base path included), else the address the login request
 * came to (behind a trusted proxy as its headers say: api/middleware/client-view.ts) under `BASE_PATH`.
 */
import type { Context } from 'hono';
import type { AppConfig } from '../../shared/config';
import type { AppEnv } from '../env';
import { publicOrigin } from '../middleware/client-view';

export const CALLBACK_PATH = '/api/spotify/callback';

export function spotifyRedirectUri(c: Context<AppEnv>, config: AppConfig): string {
  return `${publicOrigin(c, config, config.basePath)}${CALLBACK_PATH}`;
}

/** The web UI's settings page with the outcome in its query. */
export function settingsPage(config: AppConfig, outcome: Record<string, string>): string {
  return `${config.basePath}/settings?${new URLSearchParams(outcome)}`;
}
