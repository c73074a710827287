/**
 * The factories of each music platform's adapters, keyed by the platform registry's values
 * (shared/domain/platforms.ts holds every fact about a platform): its catalog (search and browse, used
 * by the api), its source (stream resolution, used by the daemon) and its login ways. Both processes
 * derive their catalogs and sources from here. The table's type asks for a catalog and a source per
 * registry row, and for a login factory with exactly the ways the row's `logins` name.
 */
import type { Db } from '../db/client';
import type { AuthLoginKind, FactsOf, Platform } from '../domain/platforms';
import type { FfmpegLocation } from '../media/ffmpeg-locator';
import { BilibiliCatalog } from './bilibili/bilibili-catalog';
import { BilibiliClient } from './bilibili/bilibili-client';
import { bilibiliCookieLogin } from './bilibili/bilibili-cookie-login';
import { storedBilibiliLogin } from './bilibili/bilibili-login';
import { refreshBilibiliLogin } from './bilibili/bilibili-login-refresh';
import { bilibiliQrLogin } from './bilibili/bilibili-qr-login';
import { BilibiliSource } from './bilibili/bilibili-source';
import { JellyfinCatalog } from './jellyfin/jellyfin-catalog';
import { storedJellyfinClient } from './jellyfin/jellyfin-client';
import { JellyfinSource } from './jellyfin/jellyfin-source';
import { KugouCatalog } from './kugou/kugou-catalog';
import { KugouClient } from './kugou/kugou-client';
import { storedKugouLogin } from './kugou/kugou-login';
import { refreshKugouLogin } from './kugou/kugou-login-refresh';
import { kugouLogin } from './kugou/kugou-platform-login';
import { KugouSource } from './kugou/kugou-source';
import { LocalCatalog } from './local/local-catalog';
import { LocalSource } from './local/local-source';
import type { MusicSource } from './music-source';
import { NeteaseCatalog } from './netease/netease-catalog';
import { NeteaseClient } from './netease/netease-client';
import { neteaseCookieLogin } from './netease/netease-cookie-login';
import { storedNeteaseLogin } from './netease/netease-login';
import { refreshNeteaseLogin } from './netease/netease-login-refresh';
import { neteaseQrLogin } from './netease/netease-qr-login';
import { neteaseSmsLogin } from './netease/netease-sms-login';
import { NeteaseSource } from './netease/netease-source';
import type { PlatformLogin } from './platform-login';
import { MusicuClient } from './qq-music/musicu-client';
import { QqMusicCatalog } from './qq-music/qq-music-catalog';
import { qqCookieLogin } from './qq-music/qq-music-cookie-login';
import { storedQqLogin } from './qq-music/qq-music-login';
import { refreshQqMusicLogin } from './qq-music/qq-music-login-refresh';
import { qqMusicQrLogin } from './qq-music/qq-music-qr-login';
import { QqMusicSource } from './qq-music/qq-music-source';
import type { SongCatalog } from './song-catalog';
import { SpotifyCatalog } from './spotify/spotify-catalog';
import { storedSpotifyClient } from './spotify/spotify-client';
import { SpotifySource } from './spotify/spotify-source';
import { StreamCatalog } from './stream/stream-catalog';
import { StreamSource } from './stream/stream-source';
import { YoutubeCatalog } from './youtube/youtube-catalog';
import { YoutubeSource } from './youtube/youtube-source';
import { YtDlp } from './youtube/yt-dlp';

/** What a platform's factories may use. */
export interface SourceContext {
  db: Db;
  /** DATA_DIR: uploads live under it. */
  dataDir: string;
  /** YTDLP_PATH: the yt-dlp executable for `video_b`; unset means `yt-dlp` on PATH. */
  ytDlpPath?: string | undefined;
  /** YTDLP_COOKIES: a cookies.txt every yt-dlp run is given. */
  ytDlpCookies?: string | undefined;
  /** YTDLP_ARGS: extra options for every yt-dlp run. */
  ytDlpArgs?: readonly string[] | undefined;
  /** LIBRESPOT_PATH: the librespot executable for `streaming_a`; unset means `librespot` on PATH. */
  librespotPath?: string | undefined;
  /** Where ffprobe is looked for (`stream` reads a plain file's tags with it); unset: no tags read. */
  ffmpeg?: FfmpegLocation | undefined;
}

export interface PlatformEntry {
  catalog: (ctx: SourceContext) => SongCatalog;
  source: (ctx: SourceContext) => MusicSource;
  /** How its shared login is made (QR, cookie, SMS) and renewed, where it has one. */
  login?: (ctx: SourceContext) => PlatformLogin;
}

/** The /api/auth login ways a registry row names. */
type AuthLoginsOf<P extends Platform> = Extract<FactsOf<P>['logins'][number], AuthLoginKind>;
/** A row's entry: a login factory giving each of its ways, and none where the row names none. */
type EntryOf<P extends Platform> = Omit<PlatformEntry, 'login'> &
  ([AuthLoginsOf<P>] extends [never]
    ? { login?: never }
    : { login: (ctx: SourceContext) => PlatformLogin & Required<Pick<PlatformLogin, AuthLoginsOf<P>>> });

export const PLATFORM_TABLE = {
  music_a: {
    catalog: ({ db }) => new NeteaseCatalog(new NeteaseClient(storedNeteaseLogin(db))),
    source: ({ db }) => new NeteaseSource(new NeteaseClient(storedNeteaseLogin(db))),
    login: () => ({
      qr: neteaseQrLogin,
      cookie: neteaseCookieLogin,
      sms: neteaseSmsLogin,
      refresh: refreshNeteaseLogin,
    }),
  },
  music_b: {
    catalog: ({ db }) => new QqMusicCatalog(new MusicuClient(storedQqLogin(db))),
    source: ({ db }) => new QqMusicSource(new MusicuClient(storedQqLogin(db))),
    login: () => ({ qr: qqMusicQrLogin, cookie: qqCookieLogin, refresh: refreshQqMusicLogin }),
  },
  music_c: {
    catalog: ({ db }) => new KugouCatalog(new KugouClient(storedKugouLogin(db))),
    source: ({ db }) => new KugouSource(new KugouClient(storedKugouLogin(db))),
    login: ({ db }) => ({ ...kugouLogin(db), refresh: (credential) => refreshKugouLogin(credential) }),
  },
  video_a: {
    catalog: ({ db }) => new BilibiliCatalog(new BilibiliClient(storedBilibiliLogin(db))),
    source: ({ db }) => new BilibiliSource(new BilibiliClient(storedBilibiliLogin(db))),
    login: () => ({ qr: bilibiliQrLogin, cookie: bilibiliCookieLogin, refresh: refreshBilibiliLogin }),
  },
  video_b: {
    catalog: (ctx) => new YoutubeCatalog(ytDlpOf(ctx)),
    source: (ctx) => new YoutubeSource(ytDlpOf(ctx)),
  },
  library_a: {
    catalog: ({ db }) => new JellyfinCatalog(storedJellyfinClient(db)),
    source: ({ db }) => new JellyfinSource(storedJellyfinClient(db)),
  },
  streaming_a: {
    catalog: ({ db }) => new SpotifyCatalog(storedSpotifyClient(db)),
    source: ({ db, librespotPath }) => new SpotifySource(storedSpotifyClient(db), { path: librespotPath }),
  },
  local: {
    catalog: ({ db }) => new LocalCatalog(db),
    source: ({ db, dataDir }) => new LocalSource(db, dataDir),
  },
  stream: {
    catalog: ({ db, ffmpeg }) => new StreamCatalog(db, ffmpeg),
    source: ({ db }) => new StreamSource(db),
  },
} satisfies { [P in Platform]: EntryOf<P> };

function ytDlpOf({ ytDlpPath, ytDlpCookies, ytDlpArgs }: SourceContext): YtDlp {
  return new YtDlp(ytDlpPath, {}, { cookies: ytDlpCookies, args: ytDlpArgs });
}

const entries = Object.entries(PLATFORM_TABLE) as [Platform, PlatformEntry][];

type Table = typeof PLATFORM_TABLE;
/** A platform's own catalog type, with the extras only it has (Bilibili's popular videos, …). */
export type CatalogOf<P extends Platform> = Table[P] extends { catalog: (ctx: SourceContext) => infer C }
  ? C
  : undefined;

/** The api's side: one catalog per platform that has one, made once per process. */
export class Catalogs {
  private readonly catalogs = new Map<Platform, SongCatalog>();

  constructor(ctx: SourceContext) {
    for (const [platform, entry] of entries) this.catalogs.set(platform, entry.catalog(ctx));
  }

  get(platform: Platform): SongCatalog | undefined {
    return this.catalogs.get(platform);
  }

  /** The catalog of one platform with its own type, for the routes only that platform has. */
  of<P extends Platform>(platform: P): CatalogOf<P> {
    return this.catalogs.get(platform) as CatalogOf<P>;
  }
}

/** The daemon's side: every source this build can play. */
export function createSources(ctx: SourceContext): MusicSource[] {
  return entries.map(([, entry]) => entry.source(ctx));
}
