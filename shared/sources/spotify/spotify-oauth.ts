/**
 * Spotify's Authorization Code flow with PKCE: the verifier and its S256 challenge, the authorization
 * page's address, and the two calls to the Accounts service's token endpoint (a code for tokens, a
 * refresh token for a new access token). With a client secret configured the client authenticates
 * with HTTP Basic as a confidential client; without one it names itself by `client_id` in the form,
 * as PKCE allows. Tokens are secrets: they travel only between Spotify and the caller.
 *
 * Parameters from Spotify's "Authorization Code with PKCE Flow" tutorial and its "Refreshing tokens"
 * guide (developer.spotify.com/documentation/web-api/tutorials/code-pkce-flow, …/refreshing-tokens):
 * a verifier of 43-128 characters of `[A-Za-z0-9_.~-]`, `code_challenge_method=S256`, `state`, a
 * space-separated `scope`, and a form-encoded POST to https://accounts.spotify.com/api/token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { err, ok, type Result } from '../../result';
import { parseJsonLoosely, readText } from '../http/fetch-json';
import { unreachableSentence } from '../http/unreachable';
import { AccountsErrorSchema, type TokenAnswer, TokenAnswerSchema } from './spotify-schemas';

export const AUTHORIZE_URL = 'https://accounts.spotify.com/authorize';
export const TOKEN_URL = 'https://accounts.spotify.com/api/token';
const TIMEOUT_MS = 10_000;

/**
 * What the bot asks for: `streaming` lets librespot play with the token, the two player scopes list
 * its device and start a track on it, the user scopes show who is logged in, and the playlist ones
 * list the account's own playlists.
 */
export const SCOPES = [
  'streaming',
  'user-read-email',
  'user-read-private',
  'user-read-playback-state',
  'user-modify-playback-state',
  'playlist-read-private',
  'playlist-read-collaborative',
] as const;

/** 64 random bytes in base64url: 86 characters, all of the allowed alphabet. */
export const newCodeVerifier = (): string => randomBytes(64).toString('base64url');
export const newState = (): string => randomBytes(24).toString('base64url');
export const codeChallenge = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  verifier: string;
}

export function authorizeUrl({ clientId, redirectUri, state, verifier }: AuthorizeRequest): string {
  const params = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    code_challenge_method: 'S256',
    code_challenge: codeChallenge(verifier),
    state,
    scope: SCOPES.join(' '),
  });
  return `${AUTHORIZE_URL}?${params}`;
}

export interface SpotifyApp {
  clientId: string;
  /** Empty when the app is used as a public client. */
  clientSecret: string;
}

/** The tokens of a login, with the moment the access token stops working. */
export interface SpotifyTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  scope: string;
}

export function exchangeCode(
  app: SpotifyApp,
  code: string,
  redirectUri: string,
  verifier: string,
): Promise<Result<SpotifyTokens>> {
  return requestTokens(app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
}

export function refreshTokens(app: SpotifyApp, refreshToken: string): Promise<Result<SpotifyTokens>> {
  return requestTokens(app, { grant_type: 'refresh_token', refresh_token: refreshToken }, refreshToken);
}

async function requestTokens(
  { clientId, clientSecret }: SpotifyApp,
  form: Record<string, string>,
  heldRefreshToken?: string,
): Promise<Result<SpotifyTokens>> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (clientSecret)
    headers.authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(TOKEN_URL, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ ...form, client_id: clientId }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return err(unreachableSentence('Spotify', error instanceof Error ? error.message : 'network error'));
  }
  const text = await readText('Spotify', response);
  if (!text.ok) return text;
  const body = parseJsonLoosely(text.value);
  if (!response.ok) {
    const refusal = AccountsErrorSchema.safeParse(body);
    const reason = refusal.success ? (refusal.data.error_description ?? refusal.data.error) : undefined;
    return err(`Spotify refused the login (${reason ?? `HTTP ${response.status}`})`);
  }
  const answer = TokenAnswerSchema.safeParse(body);
  if (!answer.success) return err('Spotify answered the login in an unexpected shape');
  const refreshToken = answer.data.refresh_token ?? heldRefreshToken;
  if (!refreshToken) return err('Spotify answered the login without a refresh token');
  return ok(tokensOf(answer.data, refreshToken));
}

function tokensOf(answer: TokenAnswer, refreshToken: string): SpotifyTokens {
  return {
    accessToken: answer.access_token,
    refreshToken,
    expiresAt: Date.now() + answer.expires_in * 1000,
    scope: answer.scope ?? '',
  };
}
