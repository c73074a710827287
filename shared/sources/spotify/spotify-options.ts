/** Spotify's slice of the process configuration (platform-module.ts `ConfigSlice`): librespot's place. */
import { z } from 'zod';
import type { ConfigSlice } from '../platform-module';

export interface SpotifyOptions {
  /** LIBRESPOT_PATH: the librespot executable that plays Spotify; unset means `librespot` on PATH. */
  librespotPath: string | undefined;
}

const env = { LIBRESPOT_PATH: z.string().optional() };

export const spotifyOptions: ConfigSlice<typeof env, SpotifyOptions> = {
  env,
  options: (e) => ({ librespotPath: e.LIBRESPOT_PATH || undefined }),
};
