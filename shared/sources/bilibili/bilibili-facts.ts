/**
 * Bilibili's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import type { PlatformFacts } from '../../domain/platform-facts';

export const BILIBILI_FACTS = {
  value: 'video_a',
  name: 'Bilibili',
  chatFlag: '-b',
  priority: 5,
  enabledByDefault: true,
  switchedBy: 'enabledProviders',
  logins: ['qr', 'cookie'],
  qualities: ['exhigh', 'standard', 'higher', 'lossless'],
  qualityReported: true,
  searchKinds: ['songs'],
  inSearchAll: true,
  personalFm: false,
  relatedSongs: true,
  lyrics: false,
  shelves: ['popularVideos'],
  probeUrl: 'https://api.bilibili.com/',
} as const satisfies PlatformFacts;
