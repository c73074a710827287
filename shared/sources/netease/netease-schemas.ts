/**
 * The shapes of NetEase Cloud Music's weapi answers this adapter reads, validated at the edge. Only the
 * fields we use are declared; zod drops the rest.
 *
 * Shapes from Binaryify/NeteaseCloudMusicApi (module/cloudsearch.js → `result.songs`;
 * module/song_detail.js → `songs` + `privileges`; module/playlist_track_all.js → `playlist.trackIds`;
 * module/album.js → `album` + `songs`; module/personal_fm.js → `data`; module/song_url_v1.js → `data[]`
 * with `url`, `fee`, `freeTrialInfo`) and the answers its documentation and users' fixtures show.
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

/** `tracks` may hold only the first part of a long playlist; `trackIds` always lists every song. */
export const PlaylistDetailSchema = z.object({
  playlist: z.object({
    id: z.number(),
    name: z.string().default(''),
    tracks: z.array(TrackSchema).default([]),
    trackIds: z.array(z.object({ id: z.number() })).default([]),
  }),
  privileges: z.array(PrivilegeSchema).default([]),
});

export const AlbumSchema = z.object({
  album: z.object({ id: z.number(), name: z.string().default('') }).nullish(),
  songs: z.array(TrackSchema).default([]),
});

export const RadioSchema = z.object({ data: z.array(TrackSchema).default([]) });

/** A file the account may not play has a null `url`; a preview has `freeTrialInfo` (seconds). */
export const SongUrlSchema = z.object({
  data: z
    .array(
      z.object({
        id: z.number(),
        url: z.string().nullish(),
        fee: z.number().default(0),
        freeTrialInfo: z.object({ start: z.number(), end: z.number() }).nullish(),
      }),
    )
    .default([]),
});
