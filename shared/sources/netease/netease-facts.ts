/**
 * NetEase Cloud Music's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import { CATALOG_SEARCH, PERSONAL_PAGES, type PlatformFacts } from '../../domain/platform-facts';

export const NETEASE_FACTS = {
  value: 'music_a',
  name: 'NetEase Cloud Music',
  chatFlag: '-n',
  priority: 1,
  enabledByDefault: true,
  switchedBy: 'enabledProviders',
  logins: ['qr', 'cookie', 'sms'],
  qualities: ['exhigh', 'standard', 'higher', 'lossless', 'hires', 'master'],
  qualityReported: true,
  searchKinds: CATALOG_SEARCH,
  inSearchAll: true,
  personalFm: true,
  relatedSongs: true,
  personalLogin: 'qr',
  lyrics: true,
  shelves: PERSONAL_PAGES,
  probeUrl: 'https://music.163.com/',
} as const satisfies PlatformFacts;
