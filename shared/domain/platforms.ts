/**
 * The one registry of music platforms: every fact about a platform that is not code — its value, the
 * chat flag, the fallback order, whether it is on by default, how its login is made, the qualities it
 * serves and what it can do. The api, the daemon, the chat parser, the OpenAPI enums and the web UI all
 * derive their lists from here; the factories of each platform's adapters are kept apart
 * (shared/sources/platform-table.ts, keyed by the same values), so the web bundle can import this
 * module without any adapter.
 *
 * Adding a platform is its folder under shared/sources, one row here (the row's place is its place in
 * the OpenAPI enum), its factories in the platform table, and its two labels (`platform.<value>` in
 * web/src/i18n/en.ts and zh.ts).
 */
import type { Quality } from './constants';

/**
 * How a platform's shared login is made: `qr`, `cookie`, `sms` through /api/auth; `server` is a
 * server's own user and password kept in the settings (Jellyfin); `oauth` is an app's authorization
 * kept in the settings (Spotify).
 */
export type LoginKind = 'qr' | 'cookie' | 'sms' | 'server' | 'oauth';
/** The login kinds made through /api/auth, each by the platform table's `login` factory. */
export const AUTH_LOGIN_KINDS = ['qr', 'cookie', 'sms'] as const satisfies readonly LoginKind[];
export type AuthLoginKind = (typeof AUTH_LOGIN_KINDS)[number];

/** What `GET /api/music/search` finds on a platform besides songs. */
export type SearchKind = 'songs' | 'albums' | 'playlists';

/**
 * The shelves of a platform's music home: the first three are the personal pages every platform may
 * have (`/api/music/recommend/*`, `/api/music/user/playlists`); the others are one platform's own routes
 * (`popularVideos` under /api/music/video_a, the rest under /api/music/library_a).
 */
export type ShelfKind =
  | 'recommendedPlaylists'
  | 'dailySongs'
  | 'accountPlaylists'
  | 'popularVideos'
  | 'latestAlbums'
  | 'mostPlayed'
  | 'genres';

export interface PlatformFacts {
  /** The service's own name, in the server's sentences; people see the UI's `platform.<value>` label. */
  name: string;
  /** The chat flag that picks it (`!play -n …`), where it has one. */
  chatFlag?: `-${string}`;
  /**
   * Its place in the fallback order when no default is set (lower first); without one it is never
   * picked by the fallback, only when asked for or set as the default.
   */
  priority?: number;
  /** Whether a new installation has it enabled (`enabledProviders`). */
  enabledByDefault: boolean;
  /** `local` is switched by `localAudioEnabled`, every other platform by `enabledProviders`. */
  switchedBy: 'enabledProviders' | 'localAudioEnabled';
  logins: readonly LoginKind[];
  /** The qualities it can serve (DECISIONS.md names), the first being its default. */
  qualities: readonly [Quality, ...Quality[]];
  /** Whether `GET /api/music/quality` reports it (SPEC: every source but video_b). */
  qualityReported: boolean;
  searchKinds: readonly [SearchKind, ...SearchKind[]];
  /** Whether the all-sources search asks it (SPEC rule 5: every enabled source but streaming_a). */
  inSearchAll: boolean;
  personalFm: boolean;
  lyrics: boolean;
  shelves: readonly ShelfKind[];
  /**
   * A cheap address whose answer (any HTTP status) says the service can be reached from this server.
   * Without one the platform is not on the internet: its account status says whether it answers.
   */
  probeUrl?: string;
}

/**
 * The shelves that exist only for a signed-in account (the platform's shared login): without one the
 * platform refuses them, so the music home does not ask.
 */
export const ACCOUNT_SHELVES: readonly ShelfKind[] = ['dailySongs', 'accountPlaylists'];

const CATALOG_SEARCH = ['songs', 'albums', 'playlists'] as const;
const PERSONAL_PAGES = ['recommendedPlaylists', 'dailySongs', 'accountPlaylists'] as const;

export const PLATFORM_REGISTRY = {
  music_a: {
    name: 'NetEase Cloud Music',
    chatFlag: '-n',
    priority: 1,
    enabledByDefault: true,
    switchedBy: 'enabledProviders',
    logins: ['qr', 'cookie', 'sms'],
    qualities: ['exhigh', 'standard', 'higher', 'lossless', 'hires', 'master'],
    qualityReported: true,
    searchKinds: CATALOG_SEARCH,
    inSearchAll: true,
    personalFm: true,
    lyrics: true,
    shelves: PERSONAL_PAGES,
    probeUrl: 'https://music.163.com/',
  },
  music_b: {
    name: 'QQ Music',
    chatFlag: '-q',
    priority: 2,
    enabledByDefault: true,
    switchedBy: 'enabledProviders',
    logins: ['qr', 'cookie'],
    qualities: ['exhigh', 'standard', 'higher', 'lossless'],
    qualityReported: true,
    searchKinds: CATALOG_SEARCH,
    inSearchAll: true,
    personalFm: true,
    lyrics: true,
    shelves: PERSONAL_PAGES,
    probeUrl: 'https://u.y.qq.com/',
  },
  video_a: {
    name: 'Bilibili',
    chatFlag: '-b',
    priority: 5,
    enabledByDefault: true,
    switchedBy: 'enabledProviders',
    logins: ['qr', 'cookie'],
    qualities: ['exhigh', 'standard', 'higher', 'lossless'],
    qualityReported: true,
    searchKinds: ['songs'],
    inSearchAll: true,
    personalFm: false,
    lyrics: false,
    shelves: ['popularVideos'],
    probeUrl: 'https://api.bilibili.com/',
  },
  video_b: {
    name: 'YouTube',
    chatFlag: '-y',
    priority: 6,
    enabledByDefault: true,
    switchedBy: 'enabledProviders',
    // yt-dlp on this machine does the work; its cookies are a setting (YTDLP_COOKIES), not a login.
    logins: [],
    qualities: ['exhigh'],
    qualityReported: false,
    searchKinds: ['songs'],
    inSearchAll: true,
    personalFm: false,
    lyrics: false,
    shelves: [],
    probeUrl: 'https://www.youtube.com/',
  },
  music_c: {
    name: 'Kugou Music',
    chatFlag: '-k',
    priority: 3,
    enabledByDefault: true,
    switchedBy: 'enabledProviders',
    logins: ['qr', 'cookie'],
    qualities: ['exhigh', 'standard', 'lossless', 'hires'],
    qualityReported: true,
    searchKinds: CATALOG_SEARCH,
    inSearchAll: true,
    personalFm: true,
    lyrics: true,
    shelves: ['recommendedPlaylists'],
    probeUrl: 'https://gateway.kugou.com/',
  },
  library_a: {
    name: 'Jellyfin',
    chatFlag: '-j',
    priority: 4,
    enabledByDefault: false,
    switchedBy: 'enabledProviders',
    logins: ['server'],
    qualities: ['direct', 'standard', 'higher', 'exhigh'],
    qualityReported: true,
    searchKinds: CATALOG_SEARCH,
    inSearchAll: true,
    personalFm: true,
    lyrics: true,
    shelves: ['latestAlbums', 'mostPlayed', 'genres'],
  },
  local: {
    name: 'Uploaded files',
    enabledByDefault: false,
    switchedBy: 'localAudioEnabled',
    logins: [],
    qualities: ['direct'],
    qualityReported: true,
    searchKinds: ['songs'],
    inSearchAll: true,
    personalFm: false,
    lyrics: true,
    shelves: [],
  },
  streaming_a: {
    name: 'Spotify',
    enabledByDefault: false,
    switchedBy: 'enabledProviders',
    logins: ['oauth'],
    // The stream's bitrate is the `spotify.bitrate` setting (librespot's own choice of 96/160/320).
    qualities: ['exhigh', 'standard', 'higher'],
    qualityReported: true,
    searchKinds: CATALOG_SEARCH,
    inSearchAll: false,
    personalFm: false,
    lyrics: false,
    shelves: ['accountPlaylists'],
    probeUrl: 'https://api.spotify.com/',
  },
  stream: {
    name: 'Internet radio and audio addresses',
    // Never a fallback: a song here is an address someone gave, never a search for words. Opt-in, like
    // library_a: SPEC's default `enabledProviders` has no `stream`, and a client that knows only SPEC's
    // platform values must never meet it unless an admin enabled it.
    enabledByDefault: false,
    switchedBy: 'enabledProviders',
    logins: [],
    qualities: ['direct'],
    qualityReported: false,
    searchKinds: ['songs'],
    // Words are not addresses: the all-sources search would only ever get nothing from it.
    inSearchAll: false,
    personalFm: false,
    lyrics: false,
    shelves: [],
  },
} as const satisfies Record<string, PlatformFacts>;

export type Platform = keyof typeof PLATFORM_REGISTRY;
/** A platform's own row, with its literal facts (its login kinds, …). */
export type FactsOf<P extends Platform> = (typeof PLATFORM_REGISTRY)[P];

/** Platform values as the API speaks them (DECISIONS.md maps each to its real service), in row order. */
export const PLATFORMS = Object.keys(PLATFORM_REGISTRY) as [Platform, ...Platform[]];

export const platformFacts = (platform: Platform): PlatformFacts => PLATFORM_REGISTRY[platform];

/** The platforms whose row says `fact`, in row order. */
const platformsWhere = (fact: (facts: PlatformFacts) => boolean): Platform[] =>
  PLATFORMS.filter((p) => fact(platformFacts(p)));

/** Default for `enabledProviders`, also used for a legacy configuration that has none. */
export const DEFAULT_ENABLED_PROVIDERS: readonly Platform[] = platformsWhere((f) => f.enabledByDefault);

/** When `defaultPlatform` is unset or disabled, the first enabled platform in this order is the default. */
export const DEFAULT_PLATFORM_PRIORITY: readonly Platform[] = platformsWhere(
  (f) => f.priority !== undefined,
).sort((a, b) => (platformFacts(a).priority ?? 0) - (platformFacts(b).priority ?? 0));

/** The platforms GET /api/music/quality reports. */
export const QUALITY_PLATFORMS = platformsWhere((f) => f.qualityReported) as [Platform, ...Platform[]];

/** The platforms whose shared login can be made by QR code (`POST /api/auth/qrcode`). */
export const QR_PLATFORMS = platformsWhere((f) => f.logins.includes('qr')) as [Platform, ...Platform[]];

/** Chat flags, one per platform that has one: `-n` → `music_a`. */
export const PLATFORM_FLAGS: Readonly<Record<string, Platform>> = Object.fromEntries(
  PLATFORMS.flatMap((p) => {
    const flag = platformFacts(p).chatFlag;
    return flag ? [[flag, p]] : [];
  }),
);

/** Whether the platform's login can be made this way. */
export const logsInBy = (platform: Platform, kind: LoginKind): boolean =>
  platformFacts(platform).logins.includes(kind);

/** The qualities a platform can serve, its default first. */
export const qualitiesOf = (platform: Platform): readonly [Quality, ...Quality[]] =>
  platformFacts(platform).qualities;

/** The OpenAPI description of the Platform enum: each value with its service's name. */
export const PLATFORM_DESCRIPTION = `Music source: ${PLATFORMS.map((p) => `${p} ${platformFacts(p).name}`).join(', ')}.`;
