/**
 * The typed API client (openapi-fetch over the generated `paths`). The web UI, the chat commands and
 * the tests call the API only through it.
 *
 * @example
 * const api = createApiClient({ baseUrl: 'http://localhost:3000', apiKey: 'tsmb_…' });
 * const { data, error } = await api.GET('/api/bot');
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
export type ApiClient = Client<paths>;
export type Schemas = components['schemas'];

export interface ApiClientOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`. */
  apiKey?: string;
  /** Extra headers on every request (e.g. a session cookie outside a browser). */
  headers?: Record<string, string>;
  /** Defaults to the global fetch; the single-process chat path passes the app's own fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
