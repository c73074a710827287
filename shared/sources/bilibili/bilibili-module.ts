/** Bilibili on the server (platform-module.ts): catalog (with its popular videos), source and logins. */
import type { PlatformModule } from '../platform-module';
import { BilibiliCatalog } from './bilibili-catalog';
import { BilibiliClient } from './bilibili-client';
import { bilibiliCookieLogin } from './bilibili-cookie-login';
import { BILIBILI_FACTS } from './bilibili-facts';
import { storedBilibiliLogin } from './bilibili-login';
import { refreshBilibiliLogin } from './bilibili-login-refresh';
import { bilibiliQrLogin } from './bilibili-qr-login';
import { BilibiliSource } from './bilibili-source';

export const bilibiliModule = {
  facts: BILIBILI_FACTS,
  catalog: ({ db }) => new BilibiliCatalog(new BilibiliClient(storedBilibiliLogin(db))),
  source: ({ db }) => new BilibiliSource(new BilibiliClient(storedBilibiliLogin(db))),
  login: () => ({ qr: bilibiliQrLogin, cookie: bilibiliCookieLogin, refresh: refreshBilibiliLogin }),
} satisfies PlatformModule;
