/**
 * The shape of a platform's facts: everything about a platform that is not code. Each platform's own
 * folder holds its row (shared/sources/<platform>/<platform>-facts.ts); platforms.ts gathers them.
 * Only types and plain data, so the web bundle can import every platform's facts without its adapter.
 */
import type { Quality } from './qualities';

/**
 * How a platform's shared login is made: `qr`, `cookie`, `sms` through /api/auth; `server` is a
 * server's own user and password kept in the settings (Jellyfin); `oauth` is an app's authorization
 * kept in the settings (Spotify).
 */
export type LoginKind = 'qr' | 'cookie' | 'sms' | 'server' | 'oauth';
/** The login kinds made through /api/auth, each by the platform module's `login` factory. */
export const AUTH_LOGIN_KINDS = ['qr', 'cookie', 'sms'] as const satisfies readonly LoginKind[];
export type AuthLoginKind = (typeof AUTH_LOGIN_KINDS)[number];

/** What `GET /api/music/search` finds on a platform besides songs. */
export type SearchKind = 'songs' | 'albums' | 'playlists';

/**
 * The shelves of a platform's music home: the first three are the personal pages every platform may
 * have (`/api/music/recommend/*`, `/api/music/user/playlists`); the others are routes one platform
 * contributes (`popularVideos` with the video routes, the rest with the media-library routes).
 */
export type ShelfKind =
  | 'recommendedPlaylists'
  | 'dailySongs'
  | 'accountPlaylists'
  | 'popularVideos'
  | 'latestAlbums'
  | 'mostPlayed'
  | 'genres'
  | 'uploadedAlbums';

export interface PlatformFacts {
  /**
   * The API's name for it (SPEC's platform values; docs/platforms.md maps each to its service). The
   * registry (platforms.ts) keys every list by it, so it is the only place a platform's value is written.
   */
  value: string;
  /** The service's own name (English); the Chinese one is `PLATFORM_NAMES` in shared/i18n/phrases.ts. */
  name: string;
  /** The chat flag that picks it (`!play -n …`), where it has one. */
  chatFlag?: `-${string}`;
  /**
   * Whether a chat `!play`/`!add` whose text is an address, without a flag, plays that address on
   * this platform (the one platform of addresses people give).
   */
  playsAddresses?: true;
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
  /**
   * The settings key its `server` or `oauth` login is kept under (its settings slice's key), which the
   * browser's login form edits.
   */
  settingsKey?: string;
  /** The qualities it can serve (DECISIONS.md names), the first being its default. */
  qualities: readonly [Quality, ...Quality[]];
  /** Whether `GET /api/music/quality` reports it (SPEC: every source but YouTube). */
  qualityReported: boolean;
  searchKinds: readonly [SearchKind, ...SearchKind[]];
  /** Whether the all-sources search asks it (SPEC rule 5: every enabled source but Spotify). */
  inSearchAll: boolean;
  personalFm: boolean;
  /** Whether autoplay can ask it for songs like one that played (its catalog's `relatedSongs`). */
  relatedSongs: boolean;
  /**
   * How a user links their own account of it (`/api/me/music/<platform>`), where they may; FM they
   * start then plays as that account.
   */
  personalLogin?: 'qr';
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

/** The search of a full music catalog: songs, albums and playlists. */
export const CATALOG_SEARCH = ['songs', 'albums', 'playlists'] as const;
/** The personal pages of a music service with accounts. */
export const PERSONAL_PAGES = ['recommendedPlaylists', 'dailySongs', 'accountPlaylists'] as const;
