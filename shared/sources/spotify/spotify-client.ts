/**
 * Calls to Spotify's Web API (https://api.spotify.com/v1) as the kept login. The access token lives
 * an hour: one that has expired (or will within a minute) is renewed with the refresh token before a
 * call, an answer of 401 renews it once and retries, and the new tokens are stored back for every
 * process. Renewals within a process share one request, so two calls at once never spend the same
 * refresh token twice; when another process renewed first (the refresh fails), its stored tokens are
 * used.
 *
 * Error answers are Spotify's `{error: {status, message}}` (Web API reference, "Response status
 * codes"); a 404 is "no such item" for the look-ups that ask for it.
 */
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { err, ok, type Result } from '../../result';
import { parseJsonLoosely, readText } from '../http/fetch-json';
import { unreachableSentence } from '../http/unreachable';
import {
  configuredSpotify,
  type SpotifySettings,
  type SpotifySettingsLookup,
  storedSpotifySettings,
} from './spotify-config';
import { refreshTokens, type SpotifyTokens } from './spotify-oauth';
import { WebApiErrorSchema } from './spotify-schemas';
import { type SpotifyTokenStore, storedSpotifyTokens } from './spotify-token-store';

export const WEB_API_URL = 'https://api.spotify.com/v1';
export const NOT_LOGGED_IN = 'Spotify is not logged in: connect an account under settings';
/** A token this close to its end is renewed first: a track start must not fail half-way. */
const EXPIRY_MARGIN_MS = 60_000;
const TIMEOUT_MS = 10_000;
const NOTHING_MISSING: ReadonlySet<number> = new Set();
const NO_SUCH_ITEM: ReadonlySet<number> = new Set([400, 404]);

export type SpotifyQuery = Record<string, string | number | undefined>;
/** Our own sentence for a refusal status where Spotify's message ("Forbidden") would not say why. */
export type RefusalWords = Readonly<Partial<Record<number, string>>>;

interface Answer {
  status: number;
  body: unknown;
}

/** Renewals under way in this process, by the refresh token they spend. */
const renewals = new Map<string, Promise<Result<SpotifyTokens>>>();

export class SpotifyClient {
  constructor(
    private readonly settings: SpotifySettingsLookup,
    private readonly tokens: SpotifyTokenStore,
  ) {}

  /** The configured settings block, or why the source cannot be used. */
  async configured(): Promise<Result<SpotifySettings>> {
    return configuredSpotify(await this.settings());
  }

  /** Whether an account has been connected (its tokens are kept). */
  async hasLogin(): Promise<boolean> {
    return (await this.tokens.load()) !== undefined;
  }

  /** A working access token (renewed when it has expired). */
  async accessToken(): Promise<Result<string>> {
    const context = await this.context();
    if (!context.ok) return context;
    const { settings, tokens } = context.value;
    if (tokens.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return ok(tokens.accessToken);
    const renewed = await this.renew(settings, tokens);
    return renewed.ok ? ok(renewed.value.accessToken) : renewed;
  }

  /** A GET whose answer must be there. */
  async get<T extends z.ZodType>(path: string, query: SpotifyQuery, schema: T): Promise<Result<z.output<T>>> {
    const read = await this.read(path, query, schema, NOTHING_MISSING);
    if (!read.ok) return read;
    return read.value === undefined ? err(`Spotify answered ${path} without a body`) : ok(read.value);
  }

  /** A look-up by id: 404, or 400 for an id Spotify calls invalid, means "no such item" (undefined). */
  find<T extends z.ZodType>(
    path: string,
    query: SpotifyQuery,
    schema: T,
    words: RefusalWords = {},
  ): Promise<Result<z.output<T> | undefined>> {
    return this.read(path, query, schema, NO_SUCH_ITEM, words);
  }

  /** A PUT whose answer has no body worth reading (the player answers 202 or 204). */
  async put(path: string, query: SpotifyQuery, body: unknown): Promise<Result<void>> {
    const answer = await this.call('PUT', path, query, body);
    if (!answer.ok) return answer;
    const { status, body: refused } = answer.value;
    return status >= 200 && status <= 299 ? ok(undefined) : err(refusal(status, refused, path));
  }

  private async read<T extends z.ZodType>(
    path: string,
    query: SpotifyQuery,
    schema: T,
    missing: ReadonlySet<number>,
    words: RefusalWords = {},
  ): Promise<Result<z.output<T> | undefined>> {
    const answer = await this.call('GET', path, query);
    if (!answer.ok) return answer;
    const { status, body } = answer.value;
    if (missing.has(status)) return ok(undefined);
    if (status < 200 || status > 299) return err(words[status] ?? refusal(status, body, path));
    const parsed = schema.safeParse(body);
    return parsed.success ? ok(parsed.data) : err(`Spotify answered ${path} in an unexpected shape`);
  }

  private async call(
    method: 'GET' | 'PUT',
    path: string,
    query: SpotifyQuery,
    body?: unknown,
  ): Promise<Result<Answer>> {
    const token = await this.accessToken();
    if (!token.ok) return token;
    const first = await send(method, path, query, body, token.value);
    if (!first.ok || first.value.status !== 401) return first;
    const context = await this.context();
    if (!context.ok) return context;
    const renewed = await this.renew(context.value.settings, context.value.tokens, token.value);
    if (!renewed.ok) return renewed;
    return send(method, path, query, body, renewed.value.accessToken);
  }

  private async context(): Promise<Result<{ settings: SpotifySettings; tokens: SpotifyTokens }>> {
    const settings = await this.configured();
    if (!settings.ok) return settings;
    const tokens = await this.tokens.load();
    return tokens ? ok({ settings: settings.value, tokens }) : err(NOT_LOGGED_IN);
  }

  /**
   * New tokens for `held`. `refused` is an access token Spotify turned away: when the store already
   * holds another one (renewed by someone else meanwhile) that one is used without a renewal.
   */
  private async renew(
    settings: SpotifySettings,
    held: SpotifyTokens,
    refused?: string,
  ): Promise<Result<SpotifyTokens>> {
    if (refused !== undefined && held.accessToken !== refused) return ok(held);
    let pending = renewals.get(held.refreshToken);
    if (!pending) {
      pending = this.renewOnce(settings, held).finally(() => renewals.delete(held.refreshToken));
      renewals.set(held.refreshToken, pending);
    }
    return pending;
  }

  private async renewOnce(settings: SpotifySettings, held: SpotifyTokens): Promise<Result<SpotifyTokens>> {
    const renewed = await refreshTokens(settings, held.refreshToken);
    if (renewed.ok) {
      await this.tokens.save(renewed.value);
      return renewed;
    }
    const stored = await this.tokens.load();
    return stored && stored.refreshToken !== held.refreshToken && stored.expiresAt > Date.now()
      ? ok(stored)
      : renewed;
  }
}

/** The client of the platform module: the settings' app, the tokens kept in the database. */
export function storedSpotifyClient(db: Db): SpotifyClient {
  return new SpotifyClient(storedSpotifySettings(db), storedSpotifyTokens(db));
}

async function send(
  method: 'GET' | 'PUT',
  path: string,
  query: SpotifyQuery,
  body: unknown,
  token: string,
): Promise<Result<Answer>> {
  try {
    const response = await fetch(webApiUrl(path, query), {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await readText('Spotify', response);
    return text.ok ? ok({ status: response.status, body: parseJsonLoosely(text.value) }) : text;
  } catch (error) {
    return err(unreachableSentence('Spotify', error instanceof Error ? error.message : 'network error'));
  }
}

function webApiUrl(path: string, query: SpotifyQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return `${WEB_API_URL}${path}${search ? `?${search}` : ''}`;
}

/** Spotify's own reason when it gave one ("Premium required"), else the status. */
function refusal(status: number, body: unknown, path: string): string {
  const parsed = WebApiErrorSchema.safeParse(body);
  const message = parsed.success ? parsed.data.error.message : undefined;
  return message
    ? `Spotify answered HTTP ${status} to ${path}: ${message}`
    : `Spotify answered HTTP ${status} to ${path}`;
}
