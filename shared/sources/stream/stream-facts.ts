/**
 * The facts of internet radio and audio addresses (shared/domain/platform-facts.ts): plain data the
 * web UI reads too, so nothing here may import adapter code.
 */
import type { PlatformFacts } from '../../domain/platform-facts';

export const STREAM_FACTS = {
  value: 'stream',
  name: 'Internet radio and audio addresses',
  // Never a fallback: a song here is an address someone gave, never a search for words. Opt-in, like
  // Jellyfin: SPEC's default `enabledProviders` has no `stream`, and a client that knows only SPEC's
  // platform values must never meet it unless an admin enabled it.
  enabledByDefault: false,
  switchedBy: 'enabledProviders',
  playsAddresses: true,
  logins: [],
  qualities: ['direct'],
  qualityReported: false,
  searchKinds: ['songs'],
  // Words are not addresses: the all-sources search would only ever get nothing from it.
  inSearchAll: false,
  personalFm: false,
  relatedSongs: false,
  lyrics: false,
  shelves: [],
} as const satisfies PlatformFacts;
