/**
 * Generated from the module list (shared/sources/platform-modules.ts) by `make openapi`
 * (scripts/platform-lists.ts); do not edit. In the list's order:
 * the configuration slices of the platforms that read environment variables (platform-config.ts).
 */
import { youtubeConfig } from './youtube/youtube-config';
import { spotifyOptions } from './spotify/spotify-options';

export const PLATFORM_CONFIG_SLICES = [youtubeConfig, spotifyOptions] as const;
