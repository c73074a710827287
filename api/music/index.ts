/**
 * /api/music: searching and browsing every source through the platform modules' catalogs. The routes
 * of a shelf only some platform has (popular videos, a media library's pages) ask the platform whose
 * facts name that shelf.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import * as routes from '../../openapi/routes/music';
import { getSourcesStatus } from '../../openapi/routes/source-status';
import { SETTINGS_EVENTS } from '../../shared/bus/subjects';
import { PLATFORMS, QUALITY_PLATFORMS, qualitiesOf } from '../../shared/domain/platforms';
import { say } from '../../shared/i18n/phrases';
import type { Result } from '../../shared/result';
import { QUALITY_SETTING, readQuality, writeQuality } from '../../shared/settings/quality';
import { readSettings } from '../../shared/settings/settings';
import { choosePlatform, isPlatformEnabled } from '../../shared/sources/platform-choice';
import type { Catalogs } from '../../shared/sources/platform-modules';
import type { ShelfCatalogs } from '../../shared/sources/shelf-catalogs';
import { principalOf } from '../access/principal';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { platformFailure } from './platform-failure';
import type { SongFinder } from './song-finder';
import { SourceStatusChecker } from './source-status';

export const SEARCH_DEFAULT_LIMIT = 20;
const RECOMMENDED_DEFAULT_LIMIT = 30;
const POPULAR_DEFAULT_LIMIT = 20;

/** A look-up that found nothing is a 404 naming what was looked for. */
function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ApiError(404, `${what} not found`);
  return value;
}

/** The report of GET /api/music/quality: the platforms SPEC lists, each with its current quality. */
const qualityReport = (map: Awaited<ReturnType<typeof readQuality>>) =>
  Object.fromEntries(QUALITY_PLATFORMS.map((p) => [p, map[p]])) as Record<
    (typeof QUALITY_PLATFORMS)[number],
    (typeof map)[keyof typeof map]
  >;

export function musicRoutes({ db, bus }: AppDeps, finder: SongFinder, catalogs: Catalogs) {
  const sourceStatus = new SourceStatusChecker(catalogs);
  /**
   * Asks the catalog of the platform that has `shelf` (its methods beyond SongCatalog), refused like
   * any call when the platform is disabled (SPEC rule 3); its failure is a 502 with its sentence.
   */
  const ask = async <S extends keyof ShelfCatalogs, T>(
    shelf: S,
    call: (catalog: ShelfCatalogs[S]) => Promise<Result<T>>,
  ): Promise<T> => {
    const owner = catalogs.withShelf(shelf);
    if (!owner) throw new ApiError(501, `no source in this build has the ${shelf} shelf`);
    await finder.catalog(owner.platform);
    const answer = await call(owner.catalog);
    if (!answer.ok) throw platformFailure(owner.platform, answer.error);
    return answer.value;
  };

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(routes.searchMusic, async (c) => {
      const { q, platform, limit = SEARCH_DEFAULT_LIMIT, offset = 0 } = c.req.valid('query');
      return c.json(await finder.searchEverything(q, platform, limit, offset), 200);
    })
    .openapi(routes.searchAllMusic, async (c) => {
      const { q, limit = SEARCH_DEFAULT_LIMIT } = c.req.valid('query');
      return c.json(await finder.searchAll(q, limit), 200);
    })

    .openapi(routes.getSong, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await finder.byId(id, c.req.valid('query').platform), 200);
    })
    .openapi(routes.getAlbum, async (c) => {
      const list = await finder.collection('album', c.req.valid('param').id, c.req.valid('query').platform);
      return c.json({ songs: list.songs }, 200);
    })
    .openapi(routes.getPlaylist, async (c) => {
      const list = await finder.collection(
        'playlist',
        c.req.valid('param').id,
        c.req.valid('query').platform,
      );
      return c.json({ songs: list.songs }, 200);
    })
    .openapi(routes.getPlaylistDetail, async (c) => {
      const { id } = c.req.valid('param');
      const detail = await finder.ask(c.req.valid('query').platform, 'playlist details', (catalog) =>
        catalog.playlistDetail?.(id),
      );
      return c.json({ playlist: found(detail, 'playlist') }, 200);
    })
    .openapi(routes.getLyrics, async (c) => {
      const lyrics = await finder.lyrics(c.req.valid('param').id, c.req.valid('query').platform);
      return c.json({ lyrics }, 200);
    })

    .openapi(routes.recommendPlaylists, async (c) => {
      const { platform, limit = RECOMMENDED_DEFAULT_LIMIT } = c.req.valid('query');
      const playlists = await finder.ask(platform, 'recommended playlists', (catalog) =>
        catalog.recommendedPlaylists?.(limit),
      );
      return c.json({ playlists }, 200);
    })
    .openapi(routes.recommendSongs, async (c) => {
      const { platform } = c.req.valid('query');
      const songs = await finder.ask(platform, 'daily songs', (catalog) => catalog.dailySongs?.());
      return c.json({ songs }, 200);
    })
    .openapi(routes.personalFm, async (c) => {
      const { platform } = c.req.valid('query');
      return c.json({ songs: await finder.personalFm(platform, principalOf(c).userId) }, 200);
    })
    .openapi(routes.userPlaylists, async (c) => {
      const { platform } = c.req.valid('query');
      const playlists = await finder.ask(platform, 'account playlists', (catalog) =>
        catalog.userPlaylists?.(),
      );
      return c.json({ playlists }, 200);
    })

    .openapi(routes.videoPopular, async (c) => {
      const { limit = POPULAR_DEFAULT_LIMIT } = c.req.valid('query');
      return c.json({ songs: await ask('popularVideos', (catalog) => catalog.popular(limit)) }, 200);
    })
    .openapi(routes.videoParts, async (c) => {
      const parts = await ask('popularVideos', (catalog) => catalog.parts(c.req.valid('query').bvid));
      return c.json(found(parts, 'video'), 200);
    })

    .openapi(routes.libraryLatestAlbums, async (c) => {
      const { limit = 12 } = c.req.valid('query');
      return c.json({ albums: await ask('latestAlbums', (catalog) => catalog.latestAlbums(limit)) }, 200);
    })
    .openapi(routes.libraryMostPlayed, async (c) => {
      const { limit = 12 } = c.req.valid('query');
      return c.json({ songs: await ask('latestAlbums', (catalog) => catalog.mostPlayed(limit)) }, 200);
    })
    .openapi(routes.libraryFavorites, async (c) => {
      const { limit = 100 } = c.req.valid('query');
      return c.json({ songs: await ask('latestAlbums', (catalog) => catalog.favorites(limit)) }, 200);
    })
    .openapi(routes.libraryGenres, async (c) => {
      const { limit = 30 } = c.req.valid('query');
      return c.json({ genres: await ask('latestAlbums', (catalog) => catalog.genres(limit)) }, 200);
    })
    .openapi(routes.libraryGenreSongs, async (c) => {
      const { id } = c.req.valid('param');
      const { limit = 100 } = c.req.valid('query');
      return c.json({ songs: await ask('latestAlbums', (catalog) => catalog.genreSongs(id, limit)) }, 200);
    })

    .openapi(routes.listProviders, async (c) => {
      const settings = await readSettings(db);
      const choice = choosePlatform(settings, undefined);
      // `local` is switched by `localAudioEnabled`, not by the provider list: it comes after the list.
      const enabled = [...new Set([...settings.enabledProviders, ...PLATFORMS])].filter((p) =>
        isPlatformEnabled(settings, p),
      );
      return c.json({ enabled, default: choice.ok ? choice.value : null }, 200);
    })
    .openapi(getSourcesStatus, async (c) => {
      const settings = await readSettings(db);
      const enabled = PLATFORMS.filter((p) => isPlatformEnabled(settings, p));
      return c.json({ sources: await sourceStatus.statusOf(enabled) }, 200);
    })
    .openapi(routes.getQuality, async (c) => c.json(qualityReport(await readQuality(db)), 200))
    .openapi(routes.setQuality, async (c) => {
      const { quality, platform } = c.req.valid('json');
      const settings = await readSettings(db);
      // SPEC platform rule 3: a disabled source that is named is refused.
      if (platform && !isPlatformEnabled(settings, platform))
        throw new ApiError(400, say.sourceNotEnabled(platform));
      const map = await readQuality(db);
      const targets = platform
        ? [platform]
        : QUALITY_PLATFORMS.filter((p) => isPlatformEnabled(settings, p) && qualitiesOf(p).includes(quality));
      for (const target of targets) {
        const served = qualitiesOf(target);
        if (!served.includes(quality))
          throw new ApiError(400, `quality: ${target} serves ${served.join(', ')}, not ${quality}`);
        map[target] = quality;
      }
      if (!targets.length) throw new ApiError(400, `quality: no enabled source serves ${quality}`);
      await writeQuality(db, map);
      bus.publish(SETTINGS_EVENTS, { keys: [QUALITY_SETTING] });
      // A quality for all says which sources it left as they were (disabled, or not serving it).
      const skipped = platform ? [] : QUALITY_PLATFORMS.filter((p) => !targets.includes(p));
      return c.json({ success: true as const, quality: qualityReport(map), skipped }, 200);
    });
}
