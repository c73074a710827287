/**
 * The shapes of NetEase Cloud Music's weapi answers this adapter reads, validated at the edge. Only the
 * fields we use are declared; zod drops the rest.
 *
 * Shapes from Binaryify/NeteaseCloudMusicApi (module/cloudsearch.js → `result.songs`, `result.albums`
 * (type 10), `result.playlists` (type 1000); module/song_detail.js → `songs` + `privileges`;
 * module/playlist_detail.js and playlist_track_all.js → `playlist` with `trackIds`, `coverImgUrl`,
 * `trackCount`, `description`; module/album.js → `album` + `songs`; module/personal_fm.js → `data`;
 * module/song_url_v1.js → `data[]` with `url`, `fee`, `freeTrialInfo`, `gain`, `peak`; module/lyric.js →
 * `lrc`/`tlyric` `.lyric`, `nolyric`, `uncollected`; module/personalized.js → `result[]` with `picUrl`;
 * module/recommend_resource.js → `recommend[]`; module/recommend_songs.js → `data.dailySongs`;
 * module/login_status.js → `account` + `profile`, both null for a dead login; module/user_playlist.js →
 * `playlist[]`) and the answers its documentation and users' fixtures show.
 */
import { z } from 'zod';

/** Per-account playability: `st < 0` is "no copyright here", `fee` as on the track. */
export const PrivilegeSchema = z.object({
  id: z.number(),
  fee: z.number().default(0),
  st: z.number().default(0),
});
export type Privilege = z.infer<typeof PrivilegeSchema>;

const ArtistSchema = z.object({ name: z.string().nullish() });
const AlbumRefSchema = z.object({ name: z.string().nullish(), picUrl: z.string().nullish() });

/**
 * One track. Newer endpoints (search, song detail, playlist, album) name the fields `ar`/`al`/`dt`;
 * personal FM still answers the older `artists`/`album`/`duration`. Both read as one shape.
 */
export const TrackSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    ar: z.array(ArtistSchema).nullish(),
    artists: z.array(ArtistSchema).nullish(),
    al: AlbumRefSchema.nullish(),
    album: AlbumRefSchema.nullish(),
    /** Milliseconds. */
    dt: z.number().nullish(),
    duration: z.number().nullish(),
    /** 0/8 free, 1 VIP, 4 bought album. */
    fee: z.number().default(0),
    privilege: PrivilegeSchema.nullish(),
  })
  .transform((t) => ({
    id: t.id,
    name: t.name,
    artists: (t.ar ?? t.artists ?? []).flatMap((a) => (a.name ? [a.name] : [])),
    album: (t.al ?? t.album)?.name ?? '',
    coverUrl: (t.al ?? t.album)?.picUrl ?? '',
    durationMs: t.dt ?? t.duration ?? 0,
    fee: t.fee,
    privilege: t.privilege ?? undefined,
  }));
export type Track = z.output<typeof TrackSchema>;

export const SearchSchema = z.object({
  result: z.object({ songs: z.array(TrackSchema).default([]) }).default({ songs: [] }),
});

export const SongDetailSchema = z.object({
  songs: z.array(TrackSchema).default([]),
  privileges: z.array(PrivilegeSchema).default([]),
});

/**
 * A playlist as lists show it. Search, the account's playlists and the daily recommendations name the
 * cover `coverImgUrl`, the anonymous recommendations `picUrl`; both read as one shape.
 */
export const PlaylistRefSchema = z
  .object({
    id: z.number(),
    name: z.string().default(''),
    coverImgUrl: z.string().nullish(),
    picUrl: z.string().nullish(),
    trackCount: z.number().default(0),
  })
  .transform((p) => ({
    id: p.id,
    name: p.name,
    coverUrl: p.coverImgUrl ?? p.picUrl ?? '',
    songCount: p.trackCount,
  }));
export type PlaylistRef = z.output<typeof PlaylistRefSchema>;

/** `tracks` may hold only the first part of a long playlist; `trackIds` always lists every song. */
export const PlaylistDetailSchema = z.object({
  playlist: z.object({
    id: z.number(),
    name: z.string().default(''),
    description: z.string().nullish(),
    coverImgUrl: z.string().nullish(),
    trackCount: z.number().nullish(),
    tracks: z.array(TrackSchema).default([]),
    trackIds: z.array(z.object({ id: z.number() })).default([]),
  }),
  privileges: z.array(PrivilegeSchema).default([]),
});

export const AlbumSchema = z.object({
  album: z.object({ id: z.number(), name: z.string().default('') }).nullish(),
  songs: z.array(TrackSchema).default([]),
});

/** An album as search lists it: `size` is its number of songs; `artist` is the main one. */
const AlbumHitSchema = z
  .object({
    id: z.number(),
    name: z.string().default(''),
    picUrl: z.string().nullish(),
    size: z.number().default(0),
    artist: ArtistSchema.nullish(),
    artists: z.array(ArtistSchema).nullish(),
  })
  .transform((a) => ({
    id: a.id,
    name: a.name,
    artist: (a.artists?.length ? a.artists : a.artist ? [a.artist] : [])
      .flatMap((artist) => (artist.name ? [artist.name] : []))
      .join(' / '),
    coverUrl: a.picUrl ?? '',
    songCount: a.size,
  }));

export type AlbumHit = z.output<typeof AlbumHitSchema>;

export const AlbumSearchSchema = z.object({
  result: z.object({ albums: z.array(AlbumHitSchema).default([]) }).default({ albums: [] }),
});

export const PlaylistSearchSchema = z.object({
  result: z.object({ playlists: z.array(PlaylistRefSchema).default([]) }).default({ playlists: [] }),
});

export const RadioSchema = z.object({ data: z.array(TrackSchema).default([]) });

/** Songs like one song: older field names (`artists`/`album`/`duration`) like personal FM. */
export const SimilarSongsSchema = z.object({ songs: z.array(TrackSchema).default([]) });

/**
 * A file the account may not play has a null `url`; a preview has `freeTrialInfo` (seconds); `gain`
 * and `peak` are the file's loudness figures where NetEase has analysed it (netease-loudness.ts).
 */
export const SongUrlSchema = z.object({
  data: z
    .array(
      z.object({
        id: z.number(),
        url: z.string().nullish(),
        fee: z.number().default(0),
        freeTrialInfo: z.object({ start: z.number(), end: z.number() }).nullish(),
        gain: z.number().nullish(),
        peak: z.number().nullish(),
      }),
    )
    .default([]),
});
export type SongUrlFile = z.infer<typeof SongUrlSchema>['data'][number];

/** One LRC text; a song without (translated) lyrics has the object missing or its `lyric` empty. */
const LrcSchema = z.object({ lyric: z.string().nullish() }).nullish();

export const LyricSchema = z.object({
  /** Set for instrumental songs. */
  nolyric: z.boolean().nullish(),
  /** Set when no one has submitted lyrics yet. */
  uncollected: z.boolean().nullish(),
  lrc: LrcSchema,
  tlyric: LrcSchema,
});

/** Anonymous recommendations (`/weapi/personalized/playlist`). */
export const PersonalizedSchema = z.object({ result: z.array(PlaylistRefSchema).default([]) });

/** A logged-in account's daily recommended playlists (`/weapi/v1/discovery/recommend/resource`). */
export const RecommendResourceSchema = z.object({ recommend: z.array(PlaylistRefSchema).default([]) });

/** The daily recommended songs; each track carries its own `privilege`. */
export const DailySongsSchema = z.object({
  data: z.object({ dailySongs: z.array(TrackSchema).default([]) }),
});

/** Who the cookie belongs to: `profile` is null when the login is dead or anonymous. */
export const AccountSchema = z.object({
  account: z.object({ id: z.number() }).nullish(),
  profile: z
    .object({ userId: z.number(), nickname: z.string().default(''), avatarUrl: z.string().nullish() })
    .nullish(),
});

/** An account's playlists, created ones first, then collected ones. */
export const UserPlaylistSchema = z.object({ playlist: z.array(PlaylistRefSchema).default([]) });
