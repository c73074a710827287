/** QQ Music on the server (platform-module.ts): catalog, source, QR and cookie logins. */
import type { PlatformModule } from '../platform-module';
import { MusicuClient } from './musicu-client';
import { QqMusicCatalog } from './qq-music-catalog';
import { qqCookieLogin } from './qq-music-cookie-login';
import { QQ_MUSIC_FACTS } from './qq-music-facts';
import { storedQqLogin } from './qq-music-login';
import { refreshQqMusicLogin } from './qq-music-login-refresh';
import { qqMusicQrLogin } from './qq-music-qr-login';
import { QqMusicSource } from './qq-music-source';

export const qqMusicModule = {
  facts: QQ_MUSIC_FACTS,
  catalog: ({ db }) => new QqMusicCatalog(new MusicuClient(storedQqLogin(db))),
  source: ({ db }) => new QqMusicSource(new MusicuClient(storedQqLogin(db))),
  login: () => ({ qr: qqMusicQrLogin, cookie: qqCookieLogin, refresh: refreshQqMusicLogin }),
} satisfies PlatformModule;
