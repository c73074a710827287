/** Music data routes (SPEC.md "Music data: /api/music"). */
import { z } from '@hono/zod-openapi';
import { QUALITIES, QUALITY_PLATFORMS } from '../../shared/domain/constants';
import { platformFacts, shelfOwner } from '../../shared/domain/platforms';
import {
  AlbumSchema,
  PlatformSchema,
  PlaylistDetailSchema,
  PlaylistSchema,
  SongSchema,
} from '../../shared/domain/schemas';
import { errors, jsonBody, jsonResponse } from '../errors';
import { platformsNamed } from '../platform-prose';
import { defineRoute } from '../policy';

const text = (name: string) =>
  z
    .string({ error: `${name} must be given once, as text` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(200);

export const searchMusic = defineRoute({
  method: 'get',
  path: '/api/music/search',
  tags: ['Music'],
  summary: 'Search one platform (the default source when none is given)',
  description: 'A disabled source is a 400; a source this build has no catalog for is a 501.',
  policy: { access: 'authenticated' },
  request: {
    query: z.object({
      q: text('q'),
      platform: PlatformSchema.optional(),
      limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'Default 20' }),
      offset: z.coerce.number().int().min(0).optional().openapi({ description: 'Default 0' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          songs: z.array(SongSchema),
          albums: z.array(AlbumSchema),
          playlists: z.array(PlaylistSchema),
        })
        .openapi('SearchResults'),
      'Results',
    ),
    ...errors(400, 401, 501, 502),
  },
});

const QualitySchema = z.enum(QUALITIES).openapi('Quality', {
  description: 'standard 128k, higher 192k, exhigh 320k, lossless, hires, master; direct = the original file',
});

/** `?platform=` of the browse routes: the default source when absent. */
const platformQuery = z.object({ platform: PlatformSchema.optional() });
const limitQuery = (defaultLimit: number, max = 100) =>
  z.coerce
    .number({ error: 'limit must be a whole number' })
    .int()
    .min(1)
    .max(max)
    .optional()
    .openapi({ description: `Default ${defaultLimit}` });
const idParam = z.object({ id: z.string().min(1).max(200) });
const songs = z.object({ songs: z.array(SongSchema) });
const playlists = z.object({ playlists: z.array(PlaylistSchema) });
const PLATFORM_ERRORS = [400, 401, 404, 501, 502] as const;
const defaultSource = 'The platform is the `platform` query (default: the configured default source).';

export const searchAllMusic = defineRoute({
  method: 'get',
  path: '/api/music/search/all',
  tags: ['Music'],
  summary: 'Search every enabled source at once',
  description:
    'Sources are asked concurrently, each with its own deadline; a source that fails or does not answer ' +
    `in time adds nothing instead of failing the search. ${platformsNamed((f) => !f.inSearchAll)} are never ` +
    'included (SPEC rule 5).',
  policy: { access: 'authenticated' },
  request: { query: z.object({ q: text('q'), limit: limitQuery(20, 50) }) },
  responses: {
    200: jsonResponse(
      z.object({
        songs: z.array(SongSchema),
        albums: z.array(AlbumSchema),
        playlists: z.array(PlaylistSchema),
      }),
      'Results of every source that answered, in source priority order',
    ),
    ...errors(400, 401),
  },
});

const browse = <P extends string>(path: P, summary: string, response: z.ZodType, extra?: object) =>
  defineRoute({
    method: 'get',
    path,
    tags: ['Music'],
    summary,
    description: defaultSource,
    policy: { access: 'authenticated' },
    request: { params: idParam, query: platformQuery, ...extra },
    responses: { 200: jsonResponse(response, summary), ...errors(...PLATFORM_ERRORS) },
  });

export const getSong = browse('/api/music/song/{id}', 'A song by its platform id', SongSchema);
export const getAlbum = browse('/api/music/album/{id}', "An album's songs", songs);
export const getPlaylist = browse('/api/music/playlist/{id}', "A playlist's songs", songs);
export const getPlaylistDetail = browse(
  '/api/music/playlist/{id}/detail',
  "A playlist's name, description and cover",
  z.object({ playlist: PlaylistDetailSchema }),
);
export const getLyrics = defineRoute({
  method: 'get',
  path: '/api/music/lyrics/{id}',
  tags: ['Music'],
  summary: "A song's lyrics as LRC text (`[mm:ss.xx]line`; translations follow as lines with the same time)",
  description: [
    defaultSource,
    'A song the platform knows but has no lyrics for (or a source that keeps none) answers `{lyrics: ""}`;',
    '404 is a song the platform does not know. An upload (`local`) answers the lyrics embedded in its tags',
    'or a `.lrc` uploaded for it (see the upload route), plain lines where they carry no times.',
  ].join(' '),
  policy: { access: 'authenticated' },
  request: { params: idParam, query: platformQuery },
  responses: {
    200: jsonResponse(z.object({ lyrics: z.string() }), 'The lyrics; empty when the song has none'),
    ...errors(400, 401, 404, 502),
  },
});

/**
 * A page of the platform's login. Only the recommendations take a `limit` (the platform pages them);
 * daily songs, FM and the account's playlists answer what the platform gives, whole.
 */
const personal = <P extends string, Q extends typeof platformQuery>(
  path: P,
  summary: string,
  response: z.ZodType,
  { query, nonGuest, note }: { query: Q; nonGuest: boolean; note?: string },
) =>
  defineRoute({
    method: 'get',
    path,
    tags: ['Music'],
    summary,
    description: [defaultSource, "Uses the platform's shared login.", note].filter(Boolean).join(' '),
    policy: { access: 'authenticated', ...(nonGuest && { nonGuest: true }) },
    request: { query },
    responses: { 200: jsonResponse(response, summary), ...errors(...PLATFORM_ERRORS) },
  });

export const recommendPlaylists = personal(
  '/api/music/recommend/playlists',
  'Recommended playlists',
  playlists,
  {
    query: platformQuery.extend({ limit: limitQuery(30) }),
    nonGuest: false,
  },
);
export const recommendSongs = personal('/api/music/recommend/songs', 'Daily recommended songs', songs, {
  query: platformQuery,
  nonGuest: true,
});
export const personalFm = personal('/api/music/personal/fm', 'A batch of personal FM songs', songs, {
  query: platformQuery,
  nonGuest: true,
});
export const userPlaylists = personal(
  '/api/music/user/playlists',
  "The logged-in account's playlists",
  playlists,
  {
    query: platformQuery,
    nonGuest: true,
    note: 'The whole list, unpaged: created then collected, as far as the platform lists them (some stop at a few hundred).',
  },
);

export const listProviders = defineRoute({
  method: 'get',
  path: '/api/music/providers',
  tags: ['Music'],
  summary: 'The enabled sources and the default one',
  policy: { access: 'authenticated' },
  responses: {
    200: jsonResponse(
      z.object({
        enabled: z.array(PlatformSchema).openapi({
          description: 'The enabled sources: `enabledProviders`, and `local` while `localAudioEnabled` is on',
        }),
        default: z.union([PlatformSchema, z.null()]),
      }),
      '`default` is what a request without `platform` uses; null when no source can be it (none enabled, ' +
        `or only sources that are never a fallback (${platformsNamed((f) => f.priority === undefined)}) and no ` +
        '`defaultPlatform`)',
    ),
    ...errors(401),
  },
});

export const QualityMapSchema = z
  .object(
    Object.fromEntries(QUALITY_PLATFORMS.map((p) => [p, QualitySchema])) as Record<
      (typeof QUALITY_PLATFORMS)[number],
      typeof QualitySchema
    >,
  )
  .openapi('QualitySettings');

export const getQuality = defineRoute({
  method: 'get',
  path: '/api/music/quality',
  tags: ['Music'],
  summary: 'The audio quality of each source',
  policy: { access: 'authenticated' },
  responses: { 200: jsonResponse(QualityMapSchema, 'Quality per platform'), ...errors(401) },
});

export const setQuality = defineRoute({
  method: 'post',
  path: '/api/music/quality',
  tags: ['Music'],
  summary: 'Set the audio quality of one source, or of all',
  description:
    'Without `platform` the quality applies to every enabled source that can serve it (400 when none ' +
    'can), and `skipped` names the sources left as they were. A named source answers 400 when it is ' +
    'disabled or cannot serve the quality. Stored, and used from the next song on.',
  policy: { access: 'authenticated', capability: 'quality' },
  request: {
    body: jsonBody(z.object({ quality: QualitySchema, platform: PlatformSchema.optional() }).strict()),
  },
  responses: {
    200: jsonResponse(
      z.object({
        success: z.literal(true),
        quality: QualityMapSchema,
        skipped: z.array(PlatformSchema).openapi({
          description:
            'Without `platform`: the sources left as they were (disabled, or not serving the quality); ' +
            'with `platform`: empty',
        }),
      }),
      'The stored qualities',
    ),
    ...errors(400, 401),
  },
});

/** The video platform with popular videos and parts: SPEC puts their routes under its value. */
const VIDEOS = shelfOwner('popularVideos');
/** The media library with pages of its own: SPEC puts their routes under its value. */
const LIBRARY = shelfOwner('latestAlbums');

export const videoPopular = defineRoute({
  method: 'get',
  path: `/api/music/${VIDEOS}/popular`,
  tags: ['Music'],
  summary: `${platformFacts(VIDEOS).name}'s popular videos, as songs`,
  policy: { access: 'authenticated' },
  request: { query: z.object({ limit: limitQuery(20, 50) }) },
  responses: { 200: jsonResponse(songs, 'Popular videos'), ...errors(400, 401, 502) },
});

export const VideoPartSchema = z
  .object({
    id: z.string().openapi({ description: 'The song id of this part, `<video_id>?p=<page>`' }),
    page: z.number().int(),
    title: z.string(),
    duration: z.number().openapi({ description: 'Seconds' }),
  })
  .openapi('VideoPart');

export const videoParts = defineRoute({
  method: 'get',
  path: `/api/music/${VIDEOS}/parts`,
  tags: ['Music'],
  summary: "A video's parts (each playable as its own song)",
  description: '`bvid` takes a video id (BV… or av…) or a video link.',
  policy: { access: 'authenticated' },
  request: { query: z.object({ bvid: text('bvid') }) },
  responses: {
    200: jsonResponse(
      z.object({
        bvid: z.string(),
        title: z.string(),
        coverUrl: z.string(),
        artist: z.string(),
        parts: z.array(VideoPartSchema),
      }),
      'The video and its parts',
    ),
    ...errors(400, 401, 404, 502),
  },
});

/** The contract of a media library page; `nonGuest` for the account's own data. */
const libraryPage = <P extends string, R extends z.ZodType>(
  path: P,
  summary: string,
  response: R,
  defaultLimit: number,
  nonGuest = false,
) => ({
  method: 'get' as const,
  path,
  tags: ['Music'],
  summary,
  description: `From the configured ${platformFacts(LIBRARY).name} server (settings \`jellyfin\`).`,
  policy: { access: 'authenticated' as const, ...(nonGuest && { nonGuest: true }) },
  request: { query: z.object({ limit: limitQuery(defaultLimit, 500) }) },
  responses: { 200: jsonResponse(response, summary), ...errors(400, 401, 501, 502) },
});
const library = <P extends string, R extends z.ZodType>(
  path: P,
  summary: string,
  response: R,
  defaultLimit: number,
  nonGuest = false,
) => defineRoute(libraryPage(path, summary, response, defaultLimit, nonGuest));

export const libraryLatestAlbums = library(
  `/api/music/${LIBRARY}/latest-albums`,
  'The newest albums',
  z.object({ albums: z.array(AlbumSchema) }),
  12,
);
export const libraryMostPlayed = library(
  `/api/music/${LIBRARY}/most-played`,
  'The songs played most',
  songs,
  12,
);
export const libraryFavorites = library(
  `/api/music/${LIBRARY}/favorites`,
  'Favorite songs',
  songs,
  100,
  true,
);
export const libraryGenres = library(
  `/api/music/${LIBRARY}/genres`,
  'Music genres',
  z.object({ genres: z.array(z.object({ id: z.string(), name: z.string() }).openapi('Genre')) }),
  30,
);
const genreSongsPage = libraryPage(`/api/music/${LIBRARY}/genre/{id}/songs`, "A genre's songs", songs, 100);
export const libraryGenreSongs = defineRoute({
  ...genreSongsPage,
  request: { ...genreSongsPage.request, params: idParam },
});
