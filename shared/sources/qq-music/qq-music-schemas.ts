/**
 * The shapes of QQ Music's `musicu.fcg` answers this adapter reads, validated at the edge. Only the
 * fields we use are declared; zod drops the rest.
 *
 * Shapes taken from public client projects: jsososo/QQMusicApi (routes/song.js: vkey `sip` +
 * `midurlinfo[].purl`; routes/album.js: `albumSonglist` → `songList[].songInfo`, `totalNum`) and
 * L-1124/QQMusicApi (qqmusic_api/modules/song.py: `music.trackInfo.UniformRuleCtrl`/`CgiGetTrackInfo`,
 * file type codes; qqmusic_api/modules/album.py: cover URL from the album mid; models/base.py `SongList`:
 * `dirinfo`/playlist fields `title`, `desc`, `picurl`, `songnum` and their aliases `tid`, `dirName`,
 * `picUrl`, `songNum`, `name`, `logo`; models/lyric.py: `lyric`, `trans`; models/recommend.py:
 * `List[].Playlist.basic` with `cover.default_url` and `song_cnt`, home feed `v_shelf[].v_niche[].v_card`;
 * models/user.py: created playlists `v_playlist`, collected `v_list` + `hasmore`, homepage
 * `Info.BaseInfo` with `Name`, `Avatar`, `EncryptedUin`; models/search.py `SearchByTypeResponse`: the
 * phone search's `body.item_song`, `item_album`, `item_songlist`; models/song.py `UrlinfoItem`;
 * models/songlist.py `GetSonglistDetailResponse`: `dirinfo`, `songlist`; models/base.py `Song.vf`).
 */
import { z } from 'zod';

const SingerSchema = z.object({ name: z.string() });

/** One track as every musicu module returns it (search, track info, playlist, album). */
export const TrackSchema = z.object({
  /** The numeric song id: the few modules that take no `songmid` (similar songs) want it. */
  id: z.number().optional(),
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
  /** The track's ReplayGain figures, twice over; zeros or null where not analysed (qq-music-loudness.ts). */
  volume: z.object({ gain: z.number().nullish(), peak: z.number().nullish() }).nullish(),
  vf: z.array(z.number()).nullish(),
});
export type Track = z.infer<typeof TrackSchema>;

/** The outer envelope: a top-level `code` and one entry per request key (we always send `req_0`). */
export const EnvelopeSchema = z.object({
  code: z.number(),
  req_0: z.object({ code: z.number(), data: z.unknown().optional() }).optional(),
});

/**
 * A hit with each field under one name: QQ Music names the same field differently from answer to
 * answer (the reference's models accept each of these names), so the first name present is taken.
 */
const renamed = (aliases: Record<string, string[]>) => (hit: unknown) => {
  if (typeof hit !== 'object' || hit === null) return hit;
  const fields = hit as Record<string, unknown>;
  const named: Record<string, unknown> = { ...fields };
  for (const [name, others] of Object.entries(aliases)) {
    const present = others.find((other) => fields[other] !== undefined && fields[other] !== null);
    if (present !== undefined) named[name] = fields[present];
  }
  return named;
};

/** `DoSearchForQQMusicMobile`: each kind's hits in `body.item_<kind>`. */
export const SearchDataSchema = z.object({
  body: z.object({ item_song: z.array(TrackSchema).default([]) }),
});

const AlbumHitSchema = z.preprocess(
  renamed({
    mid: ['albumMid', 'albumMID', 'albummid'],
    name: ['albumName', 'title'],
    pic: ['albumPic'],
    song_count: ['songnum', 'song_num', 'songNum'],
  }),
  z.object({
    mid: z.string(),
    name: z.string(),
    singer: z.string().default(''),
    singer_list: z.array(SingerSchema).default([]),
    pic: z.string().default(''),
    song_count: z.number().default(0),
  }),
);
export const AlbumSearchDataSchema = z.object({
  body: z.object({ item_album: z.array(AlbumHitSchema).default([]) }),
});

const PlaylistHitSchema = z.preprocess(
  renamed({
    id: ['tid', 'dissid'],
    title: ['dissname', 'name', 'dirName'],
    picurl: ['cover', 'logo', 'picUrl', 'imgurl'],
    songnum: ['songNum', 'song_cnt', 'song_count'],
  }),
  z.object({
    id: z.union([z.string(), z.number()]).transform(String),
    title: z.string(),
    picurl: z.string().default(''),
    songnum: z.number().default(0),
  }),
);
export const PlaylistSearchDataSchema = z.object({
  body: z.object({ item_songlist: z.array(PlaylistHitSchema).default([]) }),
});

export const TrackInfoDataSchema = z.object({ tracks: z.array(TrackSchema).default([]) });

/** `DissInfo.CgiGetDiss`: an unknown playlist answers with an empty `dirinfo` (id 0) and no songs. */
export const DissInfoDataSchema = z.object({
  dirinfo: z
    .object({
      id: z.number(),
      title: z.string().default(''),
      desc: z.string().default(''),
      picurl: z.string().default(''),
      songnum: z.number().default(0),
    })
    .optional(),
  songlist: z.array(TrackSchema).default([]),
});

export const AlbumSongListDataSchema = z.object({
  totalNum: z.number().default(0),
  songList: z.array(z.object({ songInfo: TrackSchema })).default([]),
});

/**
 * `UrlGetVkey`: a file the account may not play comes back with an empty `purl` and a `result` code
 * saying why; `sip` (CDN hosts) when the answer names any.
 */
export const VkeyDataSchema = z.object({
  sip: z.array(z.string()).default([]),
  midurlinfo: z
    .array(
      z.object({
        filename: z.string().default(''),
        purl: z.string().default(''),
        result: z.number().default(0),
      }),
    )
    .default([]),
});

/** `GetPlayLyricInfo` with `crypt: 1`: the texts encrypted as hex (qrc-crypt.ts), empty when none. */
export const LyricDataSchema = z.object({
  lyric: z.string().default(''),
  trans: z.string().default(''),
});

/** `PlaylistSquare.GetRecommendFeed`: the playlist square's recommended playlists. */
export const RecommendFeedDataSchema = z.object({
  List: z
    .array(
      z.object({
        Playlist: z.object({
          basic: z.object({
            tid: z.number(),
            title: z.string(),
            cover: z.object({ default_url: z.string().default('') }).default({ default_url: '' }),
            song_cnt: z.number().default(0),
          }),
        }),
      }),
    )
    .default([]),
});

/** `RecommendFeed.get_recommend_feed`: the home page's shelves of cards (the daily playlist is one). */
export const HomeFeedDataSchema = z.object({
  v_shelf: z
    .array(
      z.object({
        v_niche: z
          .array(
            z.object({
              v_card: z
                .array(
                  z.object({
                    id: z.union([z.string(), z.number()]).transform(String),
                    title: z.string().default(''),
                  }),
                )
                .default([]),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

/** `MbTrackRadioSvr.get_radio_track` (the "guess you like" radio, id 99): a batch of tracks. */
export const RadioTracksDataSchema = z.object({ tracks: z.array(TrackSchema).default([]) });

/** `TrackRelationServer.GetSimilarSongs`: each similar song's track under `track`. */
export const SimilarSongsDataSchema = z.object({
  vecSong: z.array(z.object({ track: TrackSchema })).default([]),
});

/** `UnifiedHomepageSrv.GetHomepageHeader`: who an account is, and its encrypted uin. */
export const HomepageDataSchema = z.object({
  Info: z.object({
    BaseInfo: z.object({
      Name: z.string().default(''),
      Avatar: z.string().default(''),
      EncryptedUin: z.string().default(''),
    }),
  }),
});

/** `PlaylistBaseRead.GetPlaylistByUin`: the playlists the account created. */
export const CreatedPlaylistsDataSchema = z.object({
  v_playlist: z
    .array(
      z.object({
        tid: z.number(),
        dirName: z.string(),
        picUrl: z.string().default(''),
        songNum: z.number().default(0),
      }),
    )
    .default([]),
});

/** `PlaylistFavRead.CgiGetPlaylistFavInfo`: one page of the playlists the account collected. */
export const CollectedPlaylistsDataSchema = z.object({
  v_list: z
    .array(
      z.object({
        tid: z.number(),
        name: z.string(),
        logo: z.string().default(''),
        songnum: z.number().default(0),
      }),
    )
    .default([]),
  hasmore: z.number().default(0),
});
