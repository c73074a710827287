/**
 * One HTTP call to a Jellyfin server. Unlike `fetchJson`, the status comes back with the body: a 401
 * means the token has gone (the client logs in again), a 404 means no such item, and reports answer
 * 204 without a body. Every request names this client in Jellyfin's own `Authorization: MediaBrowser
 * …` header, with the token in it once there is one: the legacy `X-Emby-Token` header and `api_key`
 * parameter are off by default since Jellyfin 12, and sending a token twice is discouraged.
 *
 * Header format (comma-separated `key="value"` pairs, values URL-encoded; `Client`, `Device`,
 * `DeviceId`, `Version`, `Token`) from Jellyfin's API authorization notes (gist nielsvanvelzen/
 * ea047d9028f676185832e51ffaf12a6f) and jellyfin/jellyfin
 * (Jellyfin.Server.Implementations/Security/AuthorizationContext.cs).
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { parseJsonLoosely, readText } from '../http/fetch-json';
import { unreachableSentence } from '../http/unreachable';

/** One device for every process of this bot: a login on the same device ends the previous token. */
export const JELLYFIN_DEVICE_ID = 'ts3-music-bot';
const CLIENT_NAME = 'TS3 Music Bot';
/** Shown by Jellyfin next to the client name in its dashboard's device list. */
const CLIENT_VERSION = '1.0.0';
const TIMEOUT_MS = 10_000;
const ErrorCodeSchema = z.object({ code: z.string() });

export type JellyfinQuery = Record<string, string | number | boolean | undefined>;

export interface JellyfinRequest {
  method?: 'GET' | 'POST';
  query?: JellyfinQuery;
  body?: unknown;
  /** The access token or API key; a login request has none yet. */
  token?: string;
}

export interface JellyfinAnswer {
  status: number;
  /** The parsed JSON, or undefined for an empty or non-JSON body. */
  body: unknown;
}

export function authorizationHeader(token?: string): string {
  const fields: [string, string][] = [
    ['Client', CLIENT_NAME],
    ['Device', CLIENT_NAME],
    ['DeviceId', JELLYFIN_DEVICE_ID],
    ['Version', CLIENT_VERSION],
    ...(token ? ([['Token', token]] as [string, string][]) : []),
  ];
  return `MediaBrowser ${fields.map(([key, value]) => `${key}="${encodeURIComponent(value)}"`).join(', ')}`;
}

export function jellyfinUrl(serverUrl: string, path: string, query: JellyfinQuery = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return `${serverUrl}${path}${search ? `?${search}` : ''}`;
}

export async function callJellyfin(
  serverUrl: string,
  path: string,
  request: JellyfinRequest = {},
): Promise<Result<JellyfinAnswer>> {
  const { method = 'GET', query, body, token } = request;
  try {
    const response = await fetch(jellyfinUrl(serverUrl, path, query), {
      method,
      headers: {
        accept: 'application/json',
        authorization: authorizationHeader(token),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await readText(`Jellyfin at ${serverUrl}`, response);
    return text.ok ? ok({ status: response.status, body: parseJsonLoosely(text.value) }) : text;
  } catch (error) {
    return err(unreachableSentence(`Jellyfin at ${serverUrl}`, failure(error)));
  }
}

/** Node's fetch says only "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, "bad port"). */
function failure(error: unknown): string {
  if (!(error instanceof Error)) return 'network error';
  const { cause } = error;
  if (!(cause instanceof Error)) return error.message;
  const code = ErrorCodeSchema.safeParse(cause);
  return code.success ? code.data.code : cause.message;
}

/** A successful answer's body read with `schema`; `what` names the request in the error sentence. */
export function readAnswer<T extends z.ZodType>(
  answer: JellyfinAnswer,
  schema: T,
  what: string,
): Result<z.output<T>> {
  if (answer.status < 200 || answer.status > 299)
    return err(`Jellyfin answered HTTP ${answer.status} to ${what}`);
  const parsed = schema.safeParse(answer.body);
  return parsed.success ? ok(parsed.data) : err(`Jellyfin answered ${what} in an unexpected shape`);
}
