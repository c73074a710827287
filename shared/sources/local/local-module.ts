/** Uploaded files on the server (platform-module.ts): kept under DATA_DIR, listed in the database. */
import type { PlatformModule } from '../platform-module';
import { LocalCatalog } from './local-catalog';
import { LOCAL_FACTS } from './local-facts';
import { LocalSource } from './local-source';

export const localModule = {
  facts: LOCAL_FACTS,
  catalog: ({ db }) => new LocalCatalog(db),
  source: ({ db, dataDir }) => new LocalSource(db, dataDir),
} satisfies PlatformModule;
