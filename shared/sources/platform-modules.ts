/**
 * The server's list of platform modules, one line per platform (shared/sources/platform-module.ts says
 * what a module holds): both processes derive their catalogs, sources, login ways and the platforms'
 * settings from here. The list's type asks for exactly one module per registry row
 * (shared/domain/platforms.ts), with a login factory giving exactly the ways the row's `logins` name.
 */
import type { Db } from '../db/client';
import { PLATFORMS, type Platform, platformFacts } from '../domain/platforms';
import { bilibiliModule } from './bilibili/bilibili-module';
import { jellyfinModule } from './jellyfin/jellyfin-module';
import { kugouModule } from './kugou/kugou-module';
import { localModule } from './local/local-module';
import type { MusicSource } from './music-source';
import { neteaseModule } from './netease/netease-module';
import type { PlatformOptions } from './platform-config';
import type { CommonContext, ModuleOf, PlatformModule } from './platform-module';
import { qqMusicModule } from './qq-music/qq-music-module';
import type { ShelfCatalogs } from './shelf-catalogs';
import type { SongCatalog } from './song-catalog';
import { spotifyModule } from './spotify/spotify-module';
import { streamModule } from './stream/stream-module';
import { youtubeModule } from './youtube/youtube-module';

/** One line per platform, each module naming its registry row (so no line here names a value). */
const MODULES = [
  neteaseModule,
  qqMusicModule,
  bilibiliModule,
  youtubeModule,
  kugouModule,
  jellyfinModule,
  localModule,
  spotifyModule,
  streamModule,
] as const;

/** The modules keyed by their row's value; the type asks for exactly the module each row needs. */
export const PLATFORM_MODULES = Object.fromEntries(MODULES.map((module) => [module.facts.value, module])) as {
  [M in (typeof MODULES)[number] as M['facts']['value']]: M;
} satisfies { [P in Platform]: ModuleOf<P> };

/** What a platform's factories are given: the common context and every platform's options. */
export type SourceContext = CommonContext & Partial<PlatformOptions>;

const modules = Object.entries(PLATFORM_MODULES) as [Platform, PlatformModule][];
/**
 * The one context of a process, made at its entry from its configuration: every factory gets the same.
 * `config` carries the platforms' options with the common fields (the process configuration does).
 */
export function sourceContextOf(
  db: Db,
  config: Pick<CommonContext, 'dataDir' | 'ffmpeg'> & Partial<PlatformOptions>,
): SourceContext {
  return { ...config, db };
}

/** The api's side: one catalog per platform, made once per process. */
export class Catalogs {
  private readonly catalogs = new Map<Platform, SongCatalog>();

  constructor(ctx: SourceContext) {
    for (const [platform, module] of modules) this.catalogs.set(platform, module.catalog(ctx));
  }

  get(platform: Platform): SongCatalog | undefined {
    return this.catalogs.get(platform);
  }

  /**
   * The platform whose facts name `shelf` and its catalog with that shelf's methods (the modules' type
   * checks it has them), for the routes of that shelf; undefined in a build without one.
   */
  withShelf<S extends keyof ShelfCatalogs>(
    shelf: S,
  ): { platform: Platform; catalog: ShelfCatalogs[S] } | undefined {
    const platform = PLATFORMS.find((p) => platformFacts(p).shelves.includes(shelf));
    const catalog = platform && this.catalogs.get(platform);
    return platform && catalog ? { platform, catalog: catalog as SongCatalog & ShelfCatalogs[S] } : undefined;
  }
}

/** The daemon's side: every source this build can play. */
export function createSources(ctx: SourceContext): MusicSource[] {
  return modules.map(([, module]) => module.source(ctx));
}

/** A platform's login ways, where its module has them. */
export function platformLogin(platform: Platform, ctx: SourceContext) {
  const module: PlatformModule = PLATFORM_MODULES[platform];
  return module.login?.(ctx);
}
