/**
 * Calls to the configured Jellyfin server as the configured user. The token is kept (see
 * jellyfin-session-store.ts) and renewed: a kept token for another server address, user or API key
 * is dropped for a fresh login, and an answer of 401 (token expired or revoked) triggers one fresh
 * login and one retry. Every GET names the session's user (`userId`), which Jellyfin needs for
 * per-user libraries, favourites and play counts and ignores where it has no use.
 */
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { err, ok, type Result } from '../../result';
import { type JellyfinConfig, type JellyfinConfigLookup, storedJellyfinConfig } from './jellyfin-config';
import { callJellyfin, type JellyfinAnswer, type JellyfinQuery, readAnswer } from './jellyfin-http';
import { logIn, sameUserName } from './jellyfin-login';
import {
  type JellyfinSession,
  type JellyfinSessionStore,
  storedJellyfinSessions,
} from './jellyfin-session-store';

/** A read answer with the session it was read under (its server address builds cover and audio URLs). */
export interface JellyfinRead<T> {
  data: T;
  session: JellyfinSession;
}

export class JellyfinClient {
  /**
   * The login under way, shared by every call that needs one: Jellyfin ends a device's old token at
   * each new login, so concurrent logins (a search asks songs, albums and playlists at once) would
   * cancel each other's tokens.
   */
  private loggingIn: Promise<Result<JellyfinSession>> | undefined;

  constructor(
    private readonly config: JellyfinConfigLookup,
    private readonly sessions: JellyfinSessionStore,
  ) {}

  /** The kept login when it fits the configuration, else a fresh one. */
  async session(): Promise<Result<JellyfinSession>> {
    const config = await this.config();
    return config.ok ? this.sessionFor(config.value) : config;
  }

  /** A GET whose answer must be there: HTTP 404 is an error too. */
  async get<T extends z.ZodType>(
    path: string,
    query: JellyfinQuery,
    schema: T,
  ): Promise<Result<JellyfinRead<z.output<T>>>> {
    const found = await this.find(path, query, schema);
    if (!found.ok) return found;
    return found.value ? ok(found.value) : err(`Jellyfin answered HTTP 404 to ${path}`);
  }

  /** Like `get`, for look-ups where HTTP 404 means "no such item": that is ok(undefined). */
  async find<T extends z.ZodType>(
    path: string,
    query: JellyfinQuery,
    schema: T,
  ): Promise<Result<JellyfinRead<z.output<T>> | undefined>> {
    const answer = await this.call(path, (session) => ({ query: { userId: session.userId, ...query } }));
    if (!answer.ok) return answer;
    const { status, session } = answer.value;
    if (status === 404) return ok(undefined);
    const data = readAnswer(answer.value, schema, path);
    return data.ok ? ok({ data: data.value, session }) : data;
  }

  /** A POST whose answer has no body worth reading (Jellyfin answers reports with 204). */
  async post(path: string, body: unknown): Promise<Result<void>> {
    const answer = await this.call(path, () => ({ method: 'POST', body }));
    if (!answer.ok) return answer;
    const { status } = answer.value;
    return status >= 200 && status <= 299
      ? ok(undefined)
      : err(`Jellyfin answered HTTP ${status} to ${path}`);
  }

  private async call(
    path: string,
    request: (session: JellyfinSession) => { method?: 'POST'; query?: JellyfinQuery; body?: unknown },
  ): Promise<Result<JellyfinAnswer & { session: JellyfinSession }>> {
    const config = await this.config();
    if (!config.ok) return config;
    const session = await this.sessionFor(config.value);
    if (!session.ok) return session;
    const send = (s: JellyfinSession) => callJellyfin(s.serverUrl, path, { ...request(s), token: s.token });
    const answer = await send(session.value);
    if (!answer.ok) return answer;
    if (answer.value.status !== 401) return ok({ ...answer.value, session: session.value });
    // Another call may have logged in since this one read the token: use that login before making one.
    const kept = await this.sessions.load();
    const fresh =
      kept && kept.token !== session.value.token && fits(kept, config.value)
        ? ok(kept)
        : await this.logInAgain(config.value);
    if (!fresh.ok) return fresh;
    const retried = await send(fresh.value);
    return retried.ok ? ok({ ...retried.value, session: fresh.value }) : retried;
  }

  private async sessionFor(config: JellyfinConfig): Promise<Result<JellyfinSession>> {
    const kept = await this.sessions.load();
    return kept && fits(kept, config) ? ok(kept) : this.logInAgain(config);
  }

  private logInAgain(config: JellyfinConfig): Promise<Result<JellyfinSession>> {
    this.loggingIn ??= this.logIn(config).finally(() => {
      this.loggingIn = undefined;
    });
    return this.loggingIn;
  }

  private async logIn(config: JellyfinConfig): Promise<Result<JellyfinSession>> {
    const login = await logIn(config.serverUrl, config.credentials);
    if (!login.ok) return login;
    const session = { ...login.value, serverUrl: config.serverUrl };
    await this.sessions.save(session);
    return ok(session);
  }
}

/** The client of the platform module: the settings' server and login, the token kept in the database. */
export function storedJellyfinClient(db: Db): JellyfinClient {
  return new JellyfinClient(storedJellyfinConfig(db), storedJellyfinSessions(db));
}

/**
 * Whether a kept login was made for this configuration (same server, same user, same API key). A
 * switch from an API key to a password for the same user keeps using the key until it stops working.
 */
function fits(session: JellyfinSession, { serverUrl, credentials }: JellyfinConfig): boolean {
  if (session.serverUrl !== serverUrl) return false;
  if (credentials.mode === 'password') return sameUserName(session.userName, credentials.username);
  return (
    session.token === credentials.apiKey &&
    (!credentials.username || sameUserName(session.userName, credentials.username))
  );
}
