/**
 * Spotify on the server (platform-module.ts): the catalog asks Spotify's Web API; the audio comes
 * from librespot on this machine (LIBRESPOT_PATH, spotify-options.ts).
 */
import type { PlatformModule } from '../platform-module';
import { LibrespotCredentials } from './librespot-credentials';
import { SpotifyCatalog } from './spotify-catalog';
import { storedSpotifyClient } from './spotify-client';
import { SPOTIFY_FACTS } from './spotify-facts';
import { type SpotifyOptions, spotifyOptions } from './spotify-options';
import { spotifySettings } from './spotify-settings';
import { SpotifySource } from './spotify-source';

export const spotifyModule = {
  facts: SPOTIFY_FACTS,
  config: spotifyOptions,
  settings: spotifySettings,
  catalog: ({ db }) => new SpotifyCatalog(storedSpotifyClient(db)),
  source: ({ db, dataDir, librespotPath }) =>
    new SpotifySource(storedSpotifyClient(db), {
      path: librespotPath,
      credentials: new LibrespotCredentials(dataDir),
    }),
} satisfies PlatformModule<Partial<SpotifyOptions>>;
