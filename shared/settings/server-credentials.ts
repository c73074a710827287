/**
 * The settings slice of a `server` login (a media server's address and its user's login): one shape
 * for every platform that logs in so, under the key its facts name (`settingsKey`). The browser's
 * server login form edits it by that key, and the contract names its parts `ServerCredentials` and
 * `ServerCredentialsUpdate`, so the form's types do not name a platform.
 */
import { z } from '@hono/zod-openapi';
import { type SettingsSlice, WRITE_ONLY_SECRET } from './settings-slice';

export interface ServerCredentials {
  serverUrl: string;
  authMode: 'password' | 'apikey';
  username: string;
  /** The password or the API key: a secret, shown to clients as `hasPassword`. */
  password: string;
}

const AuthMode = z.enum(['password', 'apikey']);
const EMPTY: ServerCredentials = { serverUrl: '', authMode: 'password', username: '', password: '' };

const reader = z
  .object({
    serverUrl: z.string().catch(''),
    authMode: AuthMode.catch('password'),
    username: z.string().catch(''),
    password: z.string().catch(''),
  })
  .catch(EMPTY);

const shown = z
  .object({
    serverUrl: z.string(),
    authMode: AuthMode,
    username: z.string(),
    hasPassword: z.boolean(),
  })
  .openapi('ServerCredentials', { description: "A `server` login: the media server and its user's login" });

const update = z
  .strictObject({
    serverUrl: z.union([z.url(), z.literal('')]).optional(),
    authMode: AuthMode.optional(),
    username: z.string().max(128).optional(),
    password: z.string().max(256).optional().openapi({ description: WRITE_ONLY_SECRET }),
  })
  .openapi('ServerCredentialsUpdate');

/** The slice of a platform whose `server` login is kept under `key`. */
export function serverCredentialsSlice<K extends string>(key: K) {
  return {
    key,
    reader,
    secrets: { password: 'hasPassword' },
    shown,
    update,
  } as const satisfies SettingsSlice<K, ServerCredentials>;
}
