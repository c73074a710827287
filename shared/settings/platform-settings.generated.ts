/**
 * Generated from the module list (shared/sources/platform-modules.ts) by `make openapi`
 * (scripts/platform-lists.ts); do not edit. In the list's order:
 * the settings slices of the platforms that keep settings (settings.ts).
 */
import { jellyfinSettings } from '../sources/jellyfin/jellyfin-settings';
import { spotifySettings } from '../sources/spotify/spotify-settings';
import { streamSettings } from '../sources/stream/stream-settings-slice';

export const PLATFORM_SETTINGS_SLICES = [jellyfinSettings, spotifySettings, streamSettings] as const;
