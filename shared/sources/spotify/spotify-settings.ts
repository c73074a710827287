/** Spotify's settings slice (shared/settings/settings-slice.ts): its app and how librespot plays. */
import { z } from 'zod';
import type { SettingsSlice } from '../../settings/settings-slice';

export interface SpotifySettingsBlock {
  enabled: boolean;
  clientId: string;
  /** Optional with PKCE; a secret, shown to clients as `hasClientSecret`. */
  clientSecret: string;
  backend: 'librespot';
  bitrate: 96 | 160 | 320;
  deviceName: string;
}

export const spotifySettings = {
  key: 'spotify',
  reader: z
    .object({
      enabled: z.boolean().catch(false),
      clientId: z.string().catch(''),
      clientSecret: z.string().catch(''),
      backend: z.enum(['librespot']).catch('librespot'),
      bitrate: z.union([z.literal(96), z.literal(160), z.literal(320)]).catch(320),
      deviceName: z.string().catch('TS3 Music Bot'),
    })
    .catch({
      enabled: false,
      clientId: '',
      clientSecret: '',
      backend: 'librespot',
      bitrate: 320,
      deviceName: 'TS3 Music Bot',
    }),
  secrets: { clientSecret: 'hasClientSecret' },
} as const satisfies SettingsSlice<'spotify', SpotifySettingsBlock>;
