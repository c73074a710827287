/** Jellyfin's settings slice: its `server` login (shared/settings/server-credentials.ts) under `jellyfin`. */
import { serverCredentialsSlice } from '../../settings/server-credentials';
import { JELLYFIN_FACTS } from './jellyfin-facts';

export const jellyfinSettings = serverCredentialsSlice(JELLYFIN_FACTS.settingsKey);
