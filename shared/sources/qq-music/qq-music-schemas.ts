/**
 * The shapes of QQ Music's `musicu.fcg` answers this adapter reads, validated at the edge. Only the
 * fields we use are declared; zod drops the rest.
 *
 * Shapes taken from public client projects: jsososo/QQMusicApi (routes/song.js: vkey `sip` +
 * `midurlinfo[].purl`; routes/album.js: `albumSonglist` → `songList[].songInfo`, `totalNum`) and
 * L-1124/QQMusicApi (qqmusic_api/modules/song.py: `music.trackInfo.UniformRuleCtrl`/`CgiGetTrackInfo`,
 * file type codes; qqmusic_api/modules/album.py: cover URL from the album mid).
 */
import { z } from 'zod';

const SingerSchema = z.object({ name: z.string() });

/** One track as every musicu module returns it (search, track info, playlist, album). */
export const TrackSchema = z.object({
  mid: z.string(),
  name: z.string(),
  title: z.string().optional(),
  singer: z.array(SingerSchema).default([]),
  album: z
    .object({ mid: z.string().default(''), name: z.string().default('') })
    .default({ mid: '', name: '' }),
  /** Seconds. */
  interval: z.number().default(0),
  /** `media_mid` names the audio files; a track without one has no audio on the platform. */
  file: z.object({ media_mid: z.string().default('') }).default({ media_mid: '' }),
  /** `pay_play: 1`: only paying (VIP) accounts hear more than a preview. */
  pay: z.object({ pay_play: z.number().default(0) }).default({ pay_play: 0 }),
});
export type Track = z.infer<typeof TrackSchema>;

/** The outer envelope: a top-level `code` and one entry per request key (we always send `req_0`). */
export const EnvelopeSchema = z.object({
  code: z.number(),
  req_0: z.object({ code: z.number(), data: z.unknown().optional() }).optional(),
});

export const SearchDataSchema = z.object({
  body: z.object({ song: z.object({ list: z.array(TrackSchema).default([]) }) }),
});

export const TrackInfoDataSchema = z.object({ tracks: z.array(TrackSchema).default([]) });

/** `uniform_get_Dissinfo`: an unknown playlist answers with an empty `dirinfo` (id 0) and no songs. */
export const DissInfoDataSchema = z.object({
  dirinfo: z.object({ id: z.number(), title: z.string().default('') }).optional(),
  songlist: z.array(TrackSchema).default([]),
});

export const AlbumSongListDataSchema = z.object({
  totalNum: z.number().default(0),
  songList: z.array(z.object({ songInfo: TrackSchema })).default([]),
});

/** `CgiGetVkey`: `sip` are CDN hosts; a file the account may not play comes back with an empty `purl`. */
export const VkeyDataSchema = z.object({
  sip: z.array(z.string()).default([]),
  midurlinfo: z
    .array(z.object({ filename: z.string().default(''), purl: z.string().default('') }))
    .default([]),
});
