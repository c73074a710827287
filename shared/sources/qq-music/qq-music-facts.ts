/**
 * QQ Music's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import { CATALOG_SEARCH, PERSONAL_PAGES, type PlatformFacts } from '../../domain/platform-facts';

export const QQ_MUSIC_FACTS = {
  value: 'music_b',
  name: 'QQ Music',
  chatFlag: '-q',
  priority: 2,
  enabledByDefault: true,
  switchedBy: 'enabledProviders',
  logins: ['qr', 'cookie'],
  qualities: ['exhigh', 'standard', 'higher', 'lossless'],
  qualityReported: true,
  searchKinds: CATALOG_SEARCH,
  inSearchAll: true,
  personalFm: true,
  relatedSongs: true,
  lyrics: true,
  shelves: PERSONAL_PAGES,
  probeUrl: 'https://u.y.qq.com/',
} as const satisfies PlatformFacts;
