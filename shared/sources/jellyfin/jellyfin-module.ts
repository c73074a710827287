/** Jellyfin on the server (platform-module.ts): the media server configured in the settings. */
import type { PlatformModule } from '../platform-module';
import { JellyfinCatalog } from './jellyfin-catalog';
import { storedJellyfinClient } from './jellyfin-client';
import { JELLYFIN_FACTS } from './jellyfin-facts';
import { jellyfinSettings } from './jellyfin-settings';
import { JellyfinSource } from './jellyfin-source';

export const jellyfinModule = {
  facts: JELLYFIN_FACTS,
  settings: jellyfinSettings,
  catalog: ({ db }) => new JellyfinCatalog(storedJellyfinClient(db)),
  source: ({ db }) => new JellyfinSource(storedJellyfinClient(db)),
} satisfies PlatformModule;
