/** Kugou Music on the server (platform-module.ts): catalog, source, QR and cookie logins. */
import type { PlatformModule } from '../platform-module';
import { KugouCatalog } from './kugou-catalog';
import { KugouClient } from './kugou-client';
import { KUGOU_FACTS } from './kugou-facts';
import { storedKugouLogin } from './kugou-login';
import { refreshKugouLogin } from './kugou-login-refresh';
import { kugouLogin } from './kugou-platform-login';
import { KugouSource } from './kugou-source';

export const kugouModule = {
  facts: KUGOU_FACTS,
  catalog: ({ db }) => new KugouCatalog(new KugouClient(storedKugouLogin(db))),
  source: ({ db }) => new KugouSource(new KugouClient(storedKugouLogin(db))),
  login: ({ db }) => ({ ...kugouLogin(db), refresh: (credential: string) => refreshKugouLogin(credential) }),
} satisfies PlatformModule;
