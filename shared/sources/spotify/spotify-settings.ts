/** Spotify's settings slice (shared/settings/settings-slice.ts): its app and how librespot plays. */
import { z } from '@hono/zod-openapi';
import { type SettingsSlice, WRITE_ONLY_SECRET } from '../../settings/settings-slice';
import { SPOTIFY_FACTS } from './spotify-facts';

export interface SpotifySettingsBlock {
  enabled: boolean;
  clientId: string;
  /** Optional with PKCE; a secret, shown to clients as `hasClientSecret`. */
  clientSecret: string;
  backend: 'librespot';
  bitrate: 96 | 160 | 320;
  deviceName: string;
}

const Backend = z.enum(['librespot']).openapi({
  description: `The audio sidecar that plays \`${SPOTIFY_FACTS.value}\` tracks`,
});
const Bitrate = z.union([z.literal(96), z.literal(160), z.literal(320)]);

export const spotifySettings = {
  key: SPOTIFY_FACTS.settingsKey,
  reader: z
    .object({
      enabled: z.boolean().catch(false),
      clientId: z.string().catch(''),
      clientSecret: z.string().catch(''),
      backend: Backend.catch('librespot'),
      bitrate: Bitrate.catch(320),
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
  shown: z.object({
    enabled: z.boolean(),
    clientId: z.string(),
    hasClientSecret: z.boolean(),
    backend: Backend,
    bitrate: Bitrate,
    deviceName: z.string(),
  }),
  update: z.strictObject({
    enabled: z.boolean().optional(),
    clientId: z
      .string()
      .trim()
      .max(256)
      .optional()
      .openapi({ description: "The Spotify app's client id (developer.spotify.com/dashboard)" }),
    clientSecret: z.string().trim().max(256).optional().openapi({ description: WRITE_ONLY_SECRET }),
    backend: Backend.optional(),
    bitrate: Bitrate.optional(),
    deviceName: z
      .string()
      .trim()
      .min(1, 'the device name must not be blank')
      .max(64)
      .optional()
      .openapi({ description: 'The Spotify Connect device name the sidecar uses' }),
  }),
} as const satisfies SettingsSlice<'spotify', SpotifySettingsBlock>;
