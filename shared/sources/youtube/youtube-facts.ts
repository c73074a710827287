/**
 * YouTube's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import type { PlatformFacts } from '../../domain/platform-facts';

export const YOUTUBE_FACTS = {
  value: 'video_b',
  name: 'YouTube',
  chatFlag: '-y',
  priority: 6,
  enabledByDefault: true,
  switchedBy: 'enabledProviders',
  // yt-dlp on this machine does the work; its cookies are a setting (YTDLP_COOKIES), not a login.
  logins: [],
  qualities: ['exhigh'],
  qualityReported: false,
  searchKinds: ['songs'],
  inSearchAll: true,
  personalFm: false,
  relatedSongs: true,
  lyrics: false,
  shelves: [],
  probeUrl: 'https://www.youtube.com/',
} as const satisfies PlatformFacts;
