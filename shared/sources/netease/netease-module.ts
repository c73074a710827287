/**
 * NetEase Cloud Music on the server (platform-module.ts): catalog, source, its three login ways, and
 * the status of a user's own linked account.
 */
import type { PlatformModule } from '../platform-module';
import { NeteaseCatalog } from './netease-catalog';
import { NeteaseClient } from './netease-client';
import { neteaseCookieLogin, neteaseCookieStatus } from './netease-cookie-login';
import { NETEASE_FACTS } from './netease-facts';
import { storedNeteaseLogin } from './netease-login';
import { refreshNeteaseLogin } from './netease-login-refresh';
import { neteaseQrLogin } from './netease-qr-login';
import { neteaseSmsLogin } from './netease-sms-login';
import { NeteaseSource } from './netease-source';

export const neteaseModule = {
  facts: NETEASE_FACTS,
  catalog: ({ db }) => new NeteaseCatalog(new NeteaseClient(storedNeteaseLogin(db))),
  source: ({ db }) => new NeteaseSource(new NeteaseClient(storedNeteaseLogin(db))),
  login: () => ({
    qr: neteaseQrLogin,
    cookie: neteaseCookieLogin,
    sms: neteaseSmsLogin,
    refresh: refreshNeteaseLogin,
    status: neteaseCookieStatus,
  }),
} satisfies PlatformModule;
