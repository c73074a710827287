/** Jellyfin's settings slice (shared/settings/settings-slice.ts): the server and how to log in to it. */
import { z } from '@hono/zod-openapi';
import { type SettingsSlice, WRITE_ONLY_SECRET } from '../../settings/settings-slice';

export interface JellyfinSettings {
  serverUrl: string;
  authMode: 'password' | 'apikey';
  username: string;
  /** The password or the API key: a secret, shown to clients as `hasPassword`. */
  password: string;
}

const AuthMode = z.enum(['password', 'apikey']);

export const jellyfinSettings = {
  key: 'jellyfin',
  reader: z
    .object({
      serverUrl: z.string().catch(''),
      authMode: AuthMode.catch('password'),
      username: z.string().catch(''),
      password: z.string().catch(''),
    })
    .catch({ serverUrl: '', authMode: 'password', username: '', password: '' }),
  secrets: { password: 'hasPassword' },
  shown: z.object({
    serverUrl: z.string(),
    authMode: AuthMode,
    username: z.string(),
    hasPassword: z.boolean(),
  }),
  update: z.strictObject({
    serverUrl: z.union([z.url(), z.literal('')]).optional(),
    authMode: AuthMode.optional(),
    username: z.string().max(128).optional(),
    password: z.string().max(256).optional().openapi({ description: WRITE_ONLY_SECRET }),
  }),
} as const satisfies SettingsSlice<'jellyfin', JellyfinSettings>;
