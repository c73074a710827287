/**
 * Uploaded files's facts (shared/domain/platform-facts.ts): plain data the web UI reads too, so nothing here
 * may import adapter code.
 */
import type { PlatformFacts } from '../../domain/platform-facts';

export const LOCAL_FACTS = {
  value: 'local',
  name: 'Uploaded files',
  enabledByDefault: false,
  switchedBy: 'localAudioEnabled',
  logins: [],
  qualities: ['direct'],
  qualityReported: true,
  searchKinds: ['songs', 'albums'],
  inSearchAll: true,
  personalFm: false,
  relatedSongs: true,
  lyrics: true,
  shelves: ['uploadedAlbums'],
} as const satisfies PlatformFacts;
