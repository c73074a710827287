/**
 * The shapes of Kugou Music's answers this adapter reads, validated at the edge. Only the fields we use
 * are declared; zod drops the rest. Ids arrive as numbers or strings depending on the endpoint, so
 * they are read as either and kept as text. Lengths are in seconds unless a field says otherwise.
 *
 * Shapes from the public clients of MakcRe/KuGouMusicApi: MoeKoeMusic/MoeKoeMusic (src/views/Search.vue
 * and src/components/search/*.vue: `data.lists` of songs `FileHash`, `SongName`, `SingerName`,
 * `Duration`, `Image`, albums `albumname`, `singers`, `img`, `songcount`, playlists `specialname`, `img`,
 * `song_count`, `gid`; src/views/PlaylistDetail.vue: playlist songs `hash`, `name` = "singer - title",
 * `albuminfo.name`, `cover`, `timelen`, `privilege` (10 = VIP), album songs `audio_info`, `base`,
 * `album_info`, `trans_param.union_cover`; src/views/Home.vue: `special_list` with
 * `global_collection_id`, `specialname`, `flexible_cover`, recommended songs `hash`, `songname`,
 * `author_name`, `sizable_cover`, `time_length`, the privilege answer `data[]` with `name`,
 * `singername`, `albumname`, `info.image`; src/components/player/songQueue/OnlineMusicQueue.js:
 * `relate_goods[]` with `hash`, `quality`, `level` (0 = not available), the URL answer `status`,
 * `url[]`, status 3 = no copyright; src/components/player/LyricsHandler.js: `candidates[]` `id`,
 * `accesskey`, status 200; src/views/Login.vue: QR `data.qrcode`, `data.status`, `data.nickname`;
 * src/views/Library.vue: `/user/detail` `data`), and the expired-token answer `{status: 0,
 * error_code: 20018, data: null}` quoted in MakcRe/KuGouMusicApi issue #175.
 */
import { z } from 'zod';

const text = z.union([z.string(), z.number()]).transform(String);

/** The gateway's envelope: `status` 1 and `error_code` 0 when fine. */
export const GatewayEnvelopeSchema = z.object({
  status: z.number(),
  error_code: z.number().default(0),
  data: z.unknown().optional(),
});

/** `/v3/search/song`: one page of song hits. */
export const SongSearchDataSchema = z.object({
  lists: z
    .array(
      z.object({
        FileHash: z.string(),
        SongName: z.string(),
        SingerName: z.string().default(''),
        AlbumName: z.string().default(''),
        Duration: z.number().default(0),
        Image: z.string().default(''),
        Privilege: z.number().default(0),
      }),
    )
    .default([]),
});
export type SongHit = z.infer<typeof SongSearchDataSchema>['lists'][number];

/** `/v1/search/album`. */
export const AlbumSearchDataSchema = z.object({
  lists: z
    .array(
      z.object({
        albumid: text,
        albumname: z.string(),
        singers: z.array(z.object({ name: z.string() })).default([]),
        singer: z.string().default(''),
        img: z.string().default(''),
        songcount: z.number().default(0),
      }),
    )
    .default([]),
});

/** `/v1/search/special` (Kugou calls playlists "specials"; `gid` is the playlist id). */
export const PlaylistSearchDataSchema = z.object({
  lists: z
    .array(
      z.object({
        gid: z.string(),
        specialname: z.string(),
        img: z.string().default(''),
        song_count: z.number().default(0),
      }),
    )
    .default([]),
});

/** One file of a song in `/v2/get_res_privilege/lite`: its hash at one quality. */
const GoodSchema = z.object({
  hash: z.string(),
  quality: z.string().default(''),
  level: z.number().default(0),
});
export type Good = z.infer<typeof GoodSchema>;

/** `/v2/get_res_privilege/lite`: the song (its 128 file) and its other files (`relate_goods`). */
export const PrivilegeDataSchema = z.array(
  GoodSchema.extend({
    name: z.string().default(''),
    singername: z.string().default(''),
    albumname: z.string().default(''),
    privilege: z.number().default(0),
    /** `duration` in milliseconds. */
    info: z
      .object({ image: z.string().default(''), duration: z.number().default(0) })
      .default({ image: '', duration: 0 }),
    relate_goods: z.array(GoodSchema).default([]),
  }),
);
export type PrivilegeItem = z.infer<typeof PrivilegeDataSchema>[number];

/** `/pubsongs/v2/get_other_list_file_nofilt`: one page of a playlist's songs (`timelen` in ms). */
export const PlaylistSongsDataSchema = z.object({
  songs: z
    .array(
      z.object({
        hash: z.string().default(''),
        name: z.string(),
        albuminfo: z.object({ name: z.string().default('') }).default({ name: '' }),
        cover: z.string().default(''),
        timelen: z.number().default(0),
        privilege: z.number().default(0),
      }),
    )
    .default([]),
});
export type PlaylistSong = z.infer<typeof PlaylistSongsDataSchema>['songs'][number];

/** `/v3/get_list_info`: one entry per asked playlist; an unknown one is missing. */
export const PlaylistInfoDataSchema = z.array(
  z.object({
    global_collection_id: z.string(),
    name: z.string(),
    intro: z.string().default(''),
    pic: z.string().default(''),
    count: z.number().default(0),
  }),
);

/** `/v1/album_audio/lite`: an album's songs (`audio_info.duration` in ms). */
export const AlbumSongsDataSchema = z.object({
  songs: z
    .array(
      z.object({
        audio_info: z.object({ hash: z.string().default(''), duration: z.number().default(0) }),
        base: z.object({ audio_name: z.string(), author_name: z.string().default('') }),
        album_info: z.object({ album_name: z.string().default('') }).default({ album_name: '' }),
        trans_param: z.object({ union_cover: z.string().default('') }).default({ union_cover: '' }),
        copyright: z.object({ privilege: z.number().default(0) }).default({ privilege: 0 }),
      }),
    )
    .default([]),
});
export type AlbumSong = z.infer<typeof AlbumSongsDataSchema>['songs'][number];

/** `/v2/special_recommend`: recommended playlists. */
export const SpecialRecommendDataSchema = z.object({
  special_list: z
    .array(
      z.object({
        global_collection_id: z.string(),
        specialname: z.string(),
        flexible_cover: z.string().default(''),
        songcount: z.number().default(0),
      }),
    )
    .default([]),
});

/** `/v2/personal_recommend` (personal FM): a batch of songs. */
export const PersonalFmDataSchema = z.object({
  song_list: z
    .array(
      z.object({
        hash: z.string(),
        songname: z.string(),
        author_name: z.string().default(''),
        album_name: z.string().default(''),
        time_length: z.number().default(0),
        sizable_cover: z.string().default(''),
        privilege: z.number().default(0),
      }),
    )
    .default([]),
});
export type FmSong = z.infer<typeof PersonalFmDataSchema>['song_list'][number];

/** `/v3/get_my_info`: who the login is. */
export const MyInfoDataSchema = z.object({
  nickname: z.string().default(''),
  pic: z.string().default(''),
});

/** `login-user.kugou.com/v2/qrcode`: the key of a new QR login. */
export const QrKeyDataSchema = z.object({ qrcode: z.string().min(1) });

/** `/v2/get_userinfo_qrcode`: 0 expired, 1 waiting, 2 scanned, 4 confirmed (with the token). */
export const QrStatusDataSchema = z.object({
  status: z.number(),
  nickname: z.string().default(''),
  pic: z.string().default(''),
  token: z.string().default(''),
  userid: text.default(''),
});

/** `lyrics.kugou.com/v1/search` (its own envelope, status 200): the lyric candidates of a song. */
export const LyricSearchSchema = z.object({
  status: z.number(),
  candidates: z.array(z.object({ id: text, accesskey: z.string() })).default([]),
});

/** `lyrics.kugou.com/download`: base64 `content`, KRC (`contenttype` 0) or plain text. */
export const LyricDownloadSchema = z.object({
  status: z.number(),
  content: z.string().default(''),
  fmt: z.string().default('krc'),
  contenttype: z.number().default(0),
});

/** The tracker's `/v5/url` (its own envelope): `status` 1 with URLs, 2 needs a (VIP) login, 3 no copyright. */
export const SongUrlSchema = z.object({
  status: z.number(),
  url: z.array(z.string()).default([]),
  backupUrl: z.array(z.string()).default([]),
});
