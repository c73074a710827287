/** Jellyfin's settings slice (shared/settings/settings-slice.ts): the server and how to log in to it. */
import { z } from 'zod';
import type { SettingsSlice } from '../../settings/settings-slice';

export interface JellyfinSettings {
  serverUrl: string;
  authMode: 'password' | 'apikey';
  username: string;
  /** The password or the API key: a secret, shown to clients as `hasPassword`. */
  password: string;
}

export const jellyfinSettings = {
  key: 'jellyfin',
  reader: z
    .object({
      serverUrl: z.string().catch(''),
      authMode: z.enum(['password', 'apikey']).catch('password'),
      username: z.string().catch(''),
      password: z.string().catch(''),
    })
    .catch({ serverUrl: '', authMode: 'password', username: '', password: '' }),
  secrets: { password: 'hasPassword' },
} as const satisfies SettingsSlice<'jellyfin', JellyfinSettings>;
