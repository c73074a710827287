/** Addresses people give (radio, audio files) on the server (platform-module.ts). */
import type { PlatformModule } from '../platform-module';
import { StreamCatalog } from './stream-catalog';
import { STREAM_FACTS } from './stream-facts';
import { streamSettings } from './stream-settings-slice';
import { StreamSource } from './stream-source';

export const streamModule = {
  facts: STREAM_FACTS,
  settings: streamSettings,
  catalog: ({ db, ffmpeg }) => new StreamCatalog(db, ffmpeg),
  source: ({ db }) => new StreamSource(db),
} satisfies PlatformModule;
