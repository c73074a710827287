/** The catalogs this build has, keyed by platform. Routes ask here and never switch on the platform. */
import type { Db } from '../../db/client';
import type { Platform } from '../../domain/constants';
import { LocalCatalog } from './local-catalog';
import type { SongCatalog } from './song-catalog';

export type CatalogLookup = (platform: Platform) => SongCatalog | undefined;

export function createCatalogs(db: Db): CatalogLookup {
  const catalogs: Partial<Record<Platform, SongCatalog>> = { local: new LocalCatalog(db) };
  return (platform) => catalogs[platform];
}
