/**
 * Finds what a player call asks for: picks the platform (SPEC.md platform rules), then asks that
 * platform's catalog. A disabled platform is a 400, an unavailable one a 501, nothing found a 404,
 * and a platform that could not answer (network, refusal) a 502 carrying the catalog's sentence.
 */
import { and, eq } from 'drizzle-orm';
import { personalLinks } from '../../shared/db/schema';
import type { Platform } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import type { Result } from '../../shared/result';
import { readSettings } from '../../shared/settings/settings';
import { choosePlatform } from '../../shared/sources/platform-choice';
import type { CatalogLookup } from '../../shared/sources/platform-table';
import type { SongCatalog, SongList } from '../../shared/sources/song-catalog';
import type { AppDeps } from '../env';
import { ApiError } from '../errors';

export class SongFinder {
  constructor(
    private readonly deps: AppDeps,
    private readonly catalogs: CatalogLookup,
  ) {}

  async catalog(requested: Platform | undefined): Promise<{ platform: Platform; catalog: SongCatalog }> {
    const choice = choosePlatform(await readSettings(this.deps.db), requested);
    if (!choice.ok) {
      throw new ApiError(
        400,
        choice.error.kind === 'not-enabled'
          ? receipts.sourceNotEnabled(choice.error.platform)
          : 'no music source is enabled',
      );
    }
    const catalog = this.catalogs(choice.value);
    if (!catalog) throw new ApiError(501, `the source ${choice.value} is not available in this build`);
    return { platform: choice.value, catalog };
  }

  async search(query: string, platform: Platform | undefined, limit: number, offset = 0): Promise<Song[]> {
    const { platform: chosen, catalog } = await this.catalog(platform);
    return answered(chosen, await catalog.search(query, limit, offset));
  }

  async firstResult(query: string, platform: Platform | undefined): Promise<Song> {
    const [first] = await this.search(query, platform, 1);
    if (!first) throw new ApiError(404, receipts.noResults(query));
    return first;
  }

  async byId(songId: string, platform: Platform | undefined): Promise<Song> {
    const { platform: chosen, catalog } = await this.catalog(platform);
    const song = answered(chosen, await catalog.song(songId));
    if (!song) throw new ApiError(404, 'song not found');
    return song;
  }

  async collection(
    kind: 'playlist' | 'album',
    id: string,
    platform: Platform | undefined,
  ): Promise<SongList> {
    const { platform: chosen, catalog } = await this.catalog(platform);
    const load = catalog[kind];
    if (!load) throw new ApiError(501, `the source ${chosen} has no ${kind}s`);
    const list = answered(chosen, await load.call(catalog, id));
    if (!list) throw new ApiError(404, `${kind} not found`);
    return list;
  }

  /**
   * SPEC Player rule 8: personal FM as the caller's own linked account when they have one for the
   * platform (`personal_links`), otherwise the platform's shared bot login. The credential is handed
   * to the catalog only; it is never logged or returned.
   */
  async personalFm(platform: Platform | undefined, userId: string): Promise<Song[]> {
    const { platform: chosen, catalog } = await this.catalog(platform);
    if (!catalog.personalFm)
      throw new ApiError(501, `personal FM for ${chosen} is not available in this build`);
    const link = await this.deps.db.query.personalLinks.findFirst({
      where: and(eq(personalLinks.userId, userId), eq(personalLinks.platform, chosen)),
    });
    return answered(chosen, await catalog.personalFm(link?.credential));
  }
}

/** A catalog's failure is the platform's, not ours: 502 with its sentence. */
function answered<T>(platform: Platform, result: Result<T>): T {
  if (!result.ok) throw new ApiError(502, `${platform}: ${result.error}`);
  return result.value;
}
