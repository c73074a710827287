/**
 * Jellyfin's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import { CATALOG_SEARCH, type PlatformFacts } from '../../domain/platform-facts';

export const JELLYFIN_FACTS = {
  value: 'library_a',
  name: 'Jellyfin',
  chatFlag: '-j',
  priority: 4,
  enabledByDefault: false,
  switchedBy: 'enabledProviders',
  logins: ['server'],
  settingsKey: 'jellyfin',
  qualities: ['direct', 'standard', 'higher', 'exhigh'],
  qualityReported: true,
  searchKinds: CATALOG_SEARCH,
  inSearchAll: true,
  personalFm: true,
  relatedSongs: true,
  lyrics: true,
  shelves: ['latestAlbums', 'mostPlayed', 'genres'],
} as const satisfies PlatformFacts;
