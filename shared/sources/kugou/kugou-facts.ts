/**
 * Kugou Music's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import { CATALOG_SEARCH, type PlatformFacts } from '../../domain/platform-facts';

export const KUGOU_FACTS = {
  value: 'music_c',
  name: 'Kugou Music',
  chatFlag: '-k',
  priority: 3,
  enabledByDefault: true,
  switchedBy: 'enabledProviders',
  logins: ['qr', 'cookie'],
  qualities: ['exhigh', 'standard', 'lossless', 'hires'],
  qualityReported: true,
  searchKinds: CATALOG_SEARCH,
  inSearchAll: true,
  personalFm: true,
  relatedSongs: true,
  lyrics: true,
  shelves: ['recommendedPlaylists'],
  probeUrl: 'https://gateway.kugou.com/',
} as const satisfies PlatformFacts;
