/**
 * Spotify's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import { CATALOG_SEARCH, type PlatformFacts } from '../../domain/platform-facts';

export const SPOTIFY_FACTS = {
  value: 'streaming_a',
  name: 'Spotify',
  enabledByDefault: false,
  switchedBy: 'enabledProviders',
  logins: ['oauth'],
  settingsKey: 'spotify',
  // The stream's bitrate is the `spotify.bitrate` setting (librespot's own choice of 96/160/320).
  qualities: ['exhigh', 'standard', 'higher'],
  qualityReported: true,
  searchKinds: CATALOG_SEARCH,
  inSearchAll: false,
  personalFm: false,
  relatedSongs: false,
  lyrics: false,
  shelves: ['accountPlaylists'],
  probeUrl: 'https://api.spotify.com/',
} as const satisfies PlatformFacts;
