/**
 * The one table of music platforms: for each, the label people see, and the factories of its catalog
 * (search and browse, used by the api) and of its source (stream resolution, used by the daemon).
 * Both processes derive their registries from here, so adding a source is one folder and one row.
 * A platform without a catalog answers 501 at the api; one without a source cannot be played and its
 * songs are skipped with a readable reason.
 */
import type { Db } from '../db/client';
import type { Platform } from '../domain/constants';
import { LocalCatalog } from './local/local-catalog';
import { LocalSource } from './local/local-source';
import type { MusicSource } from './music-source';
import { NeteaseCatalog } from './netease/netease-catalog';
import { NeteaseClient } from './netease/netease-client';
import { storedNeteaseLogin } from './netease/netease-login';
import { NeteaseSource } from './netease/netease-source';
import { MusicuClient } from './qq-music/musicu-client';
import { QqMusicCatalog } from './qq-music/qq-music-catalog';
import { storedQqLogin } from './qq-music/qq-music-login';
import { QqMusicSource } from './qq-music/qq-music-source';
import type { SongCatalog } from './song-catalog';

/** What a platform's factories may use. */
export interface SourceContext {
  db: Db;
  /** DATA_DIR: uploads live under it. */
  dataDir: string;
  /** YTDLP_PATH: the yt-dlp executable for `video_b`; unset means `yt-dlp` on PATH. */
  ytDlpPath?: string | undefined;
}

export interface PlatformEntry {
  /** The service's own name, for people (the API speaks only the platform value). */
  label: string;
  catalog?: (ctx: SourceContext) => SongCatalog;
  source?: (ctx: SourceContext) => MusicSource;
}

export const PLATFORM_TABLE = {
  music_a: {
    label: 'NetEase Cloud Music',
    catalog: ({ db }) => new NeteaseCatalog(new NeteaseClient(storedNeteaseLogin(db))),
    source: ({ db }) => new NeteaseSource(new NeteaseClient(storedNeteaseLogin(db))),
  },
  music_b: {
    label: 'QQ Music',
    catalog: ({ db }) => new QqMusicCatalog(new MusicuClient(storedQqLogin(db))),
    source: ({ db }) => new QqMusicSource(new MusicuClient(storedQqLogin(db))),
  },
  music_c: { label: 'Kugou Music' },
  video_a: { label: 'Bilibili' },
  video_b: { label: 'YouTube' },
  library_a: { label: 'Jellyfin' },
  streaming_a: { label: 'Spotify' },
  local: {
    label: 'Uploaded files',
    catalog: ({ db }) => new LocalCatalog(db),
    source: ({ db, dataDir }) => new LocalSource(db, dataDir),
  },
} satisfies Record<Platform, PlatformEntry>;

const entries = Object.entries(PLATFORM_TABLE) as [Platform, PlatformEntry][];

/** The api's side: one catalog per platform that has one. */
export type CatalogLookup = (platform: Platform) => SongCatalog | undefined;

export function createCatalogs(ctx: SourceContext): CatalogLookup {
  const catalogs = new Map<Platform, SongCatalog>();
  for (const [platform, entry] of entries) if (entry.catalog) catalogs.set(platform, entry.catalog(ctx));
  return (platform) => catalogs.get(platform);
}

/** The daemon's side: every source this build can play. */
export function createSources(ctx: SourceContext): MusicSource[] {
  return entries.flatMap(([, entry]) => (entry.source ? [entry.source(ctx)] : []));
}
