/** The catalogs this build has, keyed by platform. Routes ask here and never switch on the platform. */
import type { Db } from '../../db/client';
import type { Platform } from '../../domain/constants';
import { NeteaseCatalog } from '../netease/netease-catalog';
import { NeteaseClient } from '../netease/netease-client';
import { storedNeteaseLogin } from '../netease/netease-login';
import { MusicuClient } from '../qq-music/musicu-client';
import { QqMusicCatalog } from '../qq-music/qq-music-catalog';
import { storedQqLogin } from '../qq-music/qq-music-login';
import { LocalCatalog } from './local-catalog';
import type { SongCatalog } from './song-catalog';

export type CatalogLookup = (platform: Platform) => SongCatalog | undefined;

export function createCatalogs(db: Db): CatalogLookup {
  const catalogs: Partial<Record<Platform, SongCatalog>> = {
    local: new LocalCatalog(db),
    music_a: new NeteaseCatalog(new NeteaseClient(storedNeteaseLogin(db))),
    music_b: new QqMusicCatalog(new MusicuClient(storedQqLogin(db))),
  };
  return (platform) => catalogs[platform];
}
