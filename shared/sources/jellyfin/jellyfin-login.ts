/**
 * Getting a token from a Jellyfin server. Password mode posts `{Username, Pw}` to
 * `/Users/AuthenticateByName` and gets an `AccessToken` for that user. An API key is itself the token
 * but belongs to no user, while libraries, favourites and play counts are per user: the key acts as
 * the given user id, else the configured user name, else the first administrator, looked up in
 * `/Users` (which only an administrator or an API key may list). Shared by the client and the
 * connection test, so both explain a refusal the same way.
 *
 * Endpoints and shapes from jellyfin/jellyfin (Jellyfin.Api/Controllers/UserController.cs:
 * `AuthenticateUserByName`, `GetUsers`, `GetUserById`; a refused login answers 401).
 */
import { err, ok, type Result } from '../../result';
import type { JellyfinCredentials } from './jellyfin-config';
import { callJellyfin, readAnswer } from './jellyfin-http';
import { isJellyfinId } from './jellyfin-ids';
import { AuthenticationResultSchema, type User, UserSchema } from './jellyfin-schemas';

export const WRONG_PASSWORD = 'Jellyfin refused the login: wrong username or password';
export const INVALID_API_KEY = 'Jellyfin refused the API key: it is not valid (revoked or mistyped)';

export interface JellyfinLogin {
  userId: string;
  userName: string;
  /** The access token or the API key: a secret, sent only to the server. */
  token: string;
}

const refused = (status: number) => status === 401 || status === 403;

export function logIn(serverUrl: string, credentials: JellyfinCredentials): Promise<Result<JellyfinLogin>> {
  return credentials.mode === 'password'
    ? logInWithPassword(serverUrl, credentials.username, credentials.password)
    : actAsUser(serverUrl, credentials.apiKey, credentials.username, credentials.userId);
}

async function logInWithPassword(
  serverUrl: string,
  username: string,
  password: string,
): Promise<Result<JellyfinLogin>> {
  const answer = await callJellyfin(serverUrl, '/Users/AuthenticateByName', {
    method: 'POST',
    body: { Username: username, Pw: password },
  });
  if (!answer.ok) return answer;
  if (refused(answer.value.status)) return err(WRONG_PASSWORD);
  const result = readAnswer(answer.value, AuthenticationResultSchema, 'the login');
  if (!result.ok) return result;
  const { AccessToken, User } = result.value;
  return ok({ userId: User.Id, userName: User.Name, token: AccessToken });
}

async function actAsUser(
  serverUrl: string,
  apiKey: string,
  username: string,
  userId: string | undefined,
): Promise<Result<JellyfinLogin>> {
  const user = userId
    ? await userById(serverUrl, apiKey, userId)
    : await userByName(serverUrl, apiKey, username);
  return user.ok ? ok({ userId: user.value.Id, userName: user.value.Name, token: apiKey }) : user;
}

async function userById(serverUrl: string, apiKey: string, userId: string): Promise<Result<User>> {
  const missing = `Jellyfin has no user with the id ${userId}`;
  if (!isJellyfinId(userId)) return err(missing);
  const answer = await callJellyfin(serverUrl, `/Users/${userId}`, { token: apiKey });
  if (!answer.ok) return answer;
  if (refused(answer.value.status)) return err(INVALID_API_KEY);
  if (answer.value.status === 404) return err(missing);
  return readAnswer(answer.value, UserSchema, 'the user look-up');
}

async function userByName(serverUrl: string, apiKey: string, username: string): Promise<Result<User>> {
  const answer = await callJellyfin(serverUrl, '/Users', { token: apiKey });
  if (!answer.ok) return answer;
  if (refused(answer.value.status)) return err(INVALID_API_KEY);
  const users = readAnswer(answer.value, UserSchema.array(), 'the user list');
  if (!users.ok) return users;
  const active = users.value.filter((user) => !user.Policy?.IsDisabled);
  if (username) {
    const named = active.find((user) => sameUserName(user.Name, username));
    return named ? ok(named) : err(`Jellyfin has no active user named ${username}`);
  }
  const admin = active.find((user) => user.Policy?.IsAdministrator);
  return admin ? ok(admin) : err('Jellyfin has no administrator for the API key to act as; give a username');
}

/** Jellyfin user names are case-insensitive. */
export function sameUserName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}
