/**
 * The API paths that name one platform (SPEC fixes them so: `/api/music/<value>/popular`,
 * `/api/me/music/<value>/*`, `/api/spotify/*`, …), kept in this one table and keyed by what they are
 * for — a shelf kind, a login kind, the personal login, the uploads — so that no component names a
 * platform: each picks what to show from the platform's registry row (shared/domain/platforms.ts) and
 * asks the path here. A value in a path is its owner's, found by the fact that makes it the owner (as
 * the contract finds it), and a literal, so each path is a key of the typed client.
 */
import { PERSONAL_LOGIN_PLATFORM, shelfOwner } from '../../../shared/domain/platforms';

const PERSONAL = PERSONAL_LOGIN_PLATFORM;

export const PLATFORM_ROUTES = {
  /**
   * The shelves that are one platform's own routes; the personal pages (`/api/music/recommend/*`,
   * `/api/music/user/playlists`) take the platform as a query instead.
   */
  shelves: {
    popularVideos: `/api/music/${shelfOwner('popularVideos')}/popular`,
    latestAlbums: `/api/music/${shelfOwner('latestAlbums')}/latest-albums`,
    mostPlayed: `/api/music/${shelfOwner('mostPlayed')}/most-played`,
    genres: `/api/music/${shelfOwner('genres')}/genres`,
    /** The albums the uploads' tags name. */
    uploadedAlbums: `/api/music/${shelfOwner('uploadedAlbums')}/albums`,
  },
  /** The songs of one genre of the `genres` shelf. */
  genreSongs: `/api/music/${shelfOwner('genres')}/genre/{id}/songs`,
  /** The `server` login (its credentials live in the settings): trying them before they are saved. */
  server: { test: '/api/auth/jellyfin/test' },
  /**
   * The `oauth` login (its app lives in the settings): the account's status, the provider's address to
   * authorize at, and the query the authorization comes back to `/settings` with.
   */
  oauth: {
    status: '/api/spotify/status',
    login: '/api/spotify/login',
    returnQuery: 'spotify',
    /** The sidecar's own login (librespot's OAuth): POST starts it, DELETE forgets it; the pasted redirect. */
    playerLogin: '/api/spotify/librespot/login',
    playerCallback: '/api/spotify/librespot/callback',
  },
  /** A person's own account, linked by QR code to them and never to the bots (SPEC "Personal music account"). */
  personalQr: {
    status: `/api/me/music/${PERSONAL}/status`,
    /** The link itself: DELETE unlinks. */
    link: `/api/me/music/${PERSONAL}`,
    qrcode: `/api/me/music/${PERSONAL}/qrcode`,
    qrcodeStatus: `/api/me/music/${PERSONAL}/qrcode/status`,
  },
  /** Uploaded files: sending one, the list of those sent, and the quota they use. */
  uploads: {
    upload: '/api/music/local/upload',
    list: '/api/music/local/uploads',
    usage: '/api/music/local/usage',
  },
} as const;
