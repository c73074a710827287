/**
 * Connecting a Spotify account (Authorization Code with PKCE) across stateless api replicas: the start
 * keeps the attempt — its `state`, code verifier and redirect address — as a `qr_logins` row of
 * platform `streaming_a` keyed by the state, so whichever replica Spotify's redirect reaches can
 * finish it. An attempt is single-use and lives ten minutes. Finishing trades the code for tokens,
 * reads who logged in, and keeps both as the shared login (spotify-token-store.ts).
 *
 * A failure is a short reason code for the page the browser is sent back to (the web UI words it),
 * with Spotify's own sentence kept for the log: `access_denied` (or another `error` Spotify sent),
 * `invalid_state` (unknown, used or expired attempt), `token_exchange_failed`, `not_configured`.
 */
import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { qrLogins } from '../../db/schema';
import { err, ok, type Result } from '../../result';
import type { LoginProfile } from '../platform-login';
import { SpotifyClient } from './spotify-client';
import type { SpotifySettings } from './spotify-config';
import { authorizeUrl, exchangeCode, newCodeVerifier, newState, type SpotifyTokens } from './spotify-oauth';
import { ProfileSchema } from './spotify-schemas';
import { storedSpotifyTokens } from './spotify-token-store';

const PLATFORM = 'streaming_a';
export const LOGIN_TTL_MS = 10 * 60_000;

const AttemptSchema = z.object({ verifier: z.string().min(43), redirectUri: z.string() });

export interface LoginFailure {
  reason: string;
  message: string;
}

export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

/** Keeps a new attempt and answers the authorization page to send the browser to. */
export async function startSpotifyLogin(
  db: Db,
  settings: SpotifySettings,
  redirectUri: string,
): Promise<string> {
  const now = Date.now();
  await db
    .delete(qrLogins)
    .where(and(eq(qrLogins.platform, PLATFORM), lt(qrLogins.createdAt, new Date(now - LOGIN_TTL_MS))));
  const state = newState();
  const verifier = newCodeVerifier();
  await db.insert(qrLogins).values({
    key: state,
    platform: PLATFORM,
    userId: null,
    status: 'waiting',
    state: { verifier, redirectUri },
    createdAt: new Date(now),
  });
  return authorizeUrl({ clientId: settings.clientId, redirectUri, state, verifier });
}

/** Finishes the attempt Spotify's redirect names, and stores the login. */
export async function finishSpotifyLogin(
  db: Db,
  settings: SpotifySettings,
  query: CallbackQuery,
): Promise<Result<LoginProfile, LoginFailure>> {
  const attempt = query.state ? await takeAttempt(db, query.state) : undefined;
  if (!attempt)
    return err({ reason: 'invalid_state', message: 'the Spotify login is unknown, used or expired' });
  if (query.error || !query.code) {
    const reason = query.error && /^[a-z_]{1,64}$/.test(query.error) ? query.error : 'access_denied';
    return err({ reason, message: `Spotify did not authorize the login (${reason})` });
  }
  const tokens = await exchangeCode(settings, query.code, attempt.redirectUri, attempt.verifier);
  if (!tokens.ok) return err({ reason: 'token_exchange_failed', message: tokens.error });
  const profile = await profileOf(settings, tokens.value);
  await storedSpotifyTokens(db).save(tokens.value, profile);
  return ok(profile);
}

/** The attempt kept under `state`, removed so it cannot be used twice; undefined when unknown or expired. */
async function takeAttempt(db: Db, state: string): Promise<z.infer<typeof AttemptSchema> | undefined> {
  const [row] = await db
    .delete(qrLogins)
    .where(and(eq(qrLogins.key, state), eq(qrLogins.platform, PLATFORM)))
    .returning();
  if (!row || Date.now() - row.createdAt.getTime() > LOGIN_TTL_MS) return undefined;
  const attempt = AttemptSchema.safeParse(row.state);
  return attempt.success ? attempt.data : undefined;
}

/** Who logged in; a profile Spotify does not answer leaves the login nameless, not failed. */
async function profileOf(settings: SpotifySettings, tokens: SpotifyTokens): Promise<LoginProfile> {
  const fresh = new SpotifyClient(async () => settings, { load: async () => tokens, save: async () => {} });
  const profile = await fresh.get('/me', {}, ProfileSchema);
  if (!profile.ok) return {};
  const { display_name, id, images } = profile.value;
  const avatarUrl = images?.[0]?.url;
  return { nickname: display_name || id, ...(avatarUrl && { avatarUrl }) };
}
