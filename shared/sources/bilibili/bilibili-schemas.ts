/**
 * The shapes of Bilibili web API answers this adapter reads, validated at the edge. Only the fields we
 * use are declared; zod drops the rest.
 *
 * Shapes from SocialSisterYi/bilibili-API-collect: docs/login/login_info.md (`nav`, with `wbi_img`
 * even for guests), docs/misc/buvid3_4.md (`finger/spi`), docs/search/search_request.md
 * (`wbi/search/type`: highlighted titles, `m:ss` durations, `//` covers), docs/video/info.md (`view`:
 * `pages[]` with `cid`, `page`, `part`, `duration`), docs/video_ranking/popular.md (`popular`),
 * docs/video/recommend.md (`archive/related`: an array of `view`-like videos without `pages`) and
 * docs/video/videostream_url.md (`wbi/playurl`: `dash.audio[]`, `dash.dolby.audio[]`,
 * `dash.flac.audio`, or `durl[]` for MP4).
 */
import { z } from 'zod';

/** Every answer: `code` 0 is fine, anything else is an error code with a Chinese `message`. */
export const EnvelopeSchema = z.object({
  code: z.number(),
  message: z.string().nullish(),
  data: z.unknown().optional(),
});

export const NavDataSchema = z.object({
  isLogin: z.boolean().default(false),
  uname: z.string().optional(),
  face: z.string().optional(),
  wbi_img: z.object({ img_url: z.string(), sub_url: z.string() }),
});
export type NavData = z.infer<typeof NavDataSchema>;

export const SpiDataSchema = z.object({ b_3: z.string(), b_4: z.string().default('') });

/** What a refused WBI signature is answered with (code 0): a voucher for a captcha, no data. */
export const VoucherSchema = z.object({ v_voucher: z.string() });

export const SearchRowSchema = z.object({
  type: z.string(),
  bvid: z.string().default(''),
  title: z.string(),
  author: z.string().default(''),
  pic: z.string().default(''),
  /** `m:ss` or `h:mm:ss`, not zero-padded ("4:1" is 4 minutes 1 second). */
  duration: z.string().default(''),
});
export type SearchRow = z.infer<typeof SearchRowSchema>;

/** A search without hits has no `result` at all. */
export const SearchDataSchema = z.object({ result: z.array(SearchRowSchema).default([]) });

const OwnerSchema = z.object({ name: z.string().default('') }).default({ name: '' });

export const PageSchema = z.object({
  cid: z.number(),
  page: z.number(),
  part: z.string().default(''),
  /** Seconds. */
  duration: z.number().default(0),
});
export type Page = z.infer<typeof PageSchema>;

/** One video as `view` and `popular` give it. */
export const VideoSchema = z.object({
  bvid: z.string(),
  aid: z.number(),
  title: z.string(),
  pic: z.string().default(''),
  /** Seconds, all parts together. */
  duration: z.number().default(0),
  owner: OwnerSchema,
});
export type Video = z.infer<typeof VideoSchema>;

export const ViewDataSchema = VideoSchema.extend({ pages: z.array(PageSchema).default([]) });
export type ViewData = z.infer<typeof ViewDataSchema>;

export const PopularDataSchema = z.object({ list: z.array(VideoSchema).default([]) });

/** `archive/related`: up to 40 videos like one, each as `view` gives it without its parts. */
export const RelatedDataSchema = z.array(
  VideoSchema.extend({
    /** How many parts the video has. */
    videos: z.number().default(1),
  }),
);

const DashAudioSchema = z.object({
  id: z.number(),
  baseUrl: z.string(),
  /** Bits per second. */
  bandwidth: z.number().default(0),
  codecs: z.string().default(''),
});
export type DashAudio = z.infer<typeof DashAudioSchema>;

export const PlayUrlDataSchema = z.object({
  dash: z
    .object({
      audio: z.array(DashAudioSchema).nullish(),
      dolby: z.object({ audio: z.array(DashAudioSchema).nullish() }).nullish(),
      flac: z.object({ audio: DashAudioSchema.nullish() }).nullish(),
    })
    .nullish(),
  durl: z.array(z.object({ url: z.string() })).nullish(),
  /** The audio's loudnorm measurements (bilibili-loudness.ts); absent or zeros where not measured. */
  volume: z.object({ measured_i: z.number().nullish(), measured_tp: z.number().nullish() }).nullish(),
});
export type PlayUrlData = z.infer<typeof PlayUrlDataSchema>;
