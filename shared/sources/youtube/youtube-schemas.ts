/**
 * The parts of yt-dlp's `--dump-single-json` answers the `video_b` source reads. Field names are
 * yt-dlp's info-dict fields (yt-dlp/yt-dlp README.md, "OUTPUT TEMPLATE": id, title, channel,
 * uploader, duration, thumbnail(s), url, http_headers, requested_formats). Flat entries
 * (`--flat-playlist`) are built by yt-dlp/yt-dlp: yt_dlp/extractor/youtube/_tab.py (`_extract_video`:
 * `_type: 'url'`, id, url, title, duration, channel, uploader, thumbnails with url/width/height, any of
 * which but id may be null). Unknown fields are ignored: yt-dlp adds fields between versions.
 */
import { z } from 'zod';

const ThumbnailSchema = z.object({
  url: z.string(),
  width: z.number().nullish(),
  height: z.number().nullish(),
});
export type Thumbnail = z.infer<typeof ThumbnailSchema>;

/** What a flat entry and a full video answer have in common: the fields a Song is made of. */
export const VideoSummarySchema = z.object({
  id: z.string(),
  title: z.string().nullish(),
  duration: z.number().nullish(),
  channel: z.string().nullish(),
  uploader: z.string().nullish(),
  /** Set on a full answer only: yt-dlp's pick of the best thumbnail. */
  thumbnail: z.string().nullish(),
  thumbnails: z.array(ThumbnailSchema).nullish(),
});
export type VideoSummary = z.infer<typeof VideoSummarySchema>;

/** A search (`ytsearchN:`) or a playlist with `--flat-playlist`: `_type: 'playlist'` and flat entries. */
export const FlatPlaylistSchema = z.object({
  _type: z.literal('playlist'),
  id: z.string(),
  title: z.string().nullish(),
  entries: z.array(VideoSummarySchema),
});

const HeadersSchema = z.record(z.string(), z.string());
/** The audio URL goes to ffmpeg, which also opens files and other protocols: only web URLs pass. */
const AudioUrlSchema = z.url({ protocol: /^https?$/ });

/** How yt-dlp would download the format: `https`, or `m3u8_native`/`m3u8` for an HLS playlist (a live). */
const ProtocolSchema = z.string().nullish();

const FormatSchema = z.object({
  url: AudioUrlSchema,
  acodec: z.string().nullish(),
  protocol: ProtocolSchema,
  http_headers: HeadersSchema.nullish(),
});

/**
 * One video resolved with `-f`: a single chosen format is merged into the top level (`url`,
 * `http_headers`); a merged choice (video+audio) lists its parts in `requested_formats` instead.
 */
export const ResolvedVideoSchema = z.object({
  id: z.string(),
  /** True while the video is a live broadcast (yt-dlp's `is_live`). */
  is_live: z.boolean().nullish(),
  url: AudioUrlSchema.nullish(),
  protocol: ProtocolSchema,
  http_headers: HeadersSchema.nullish(),
  requested_formats: z.array(FormatSchema).nullish(),
});
export type ResolvedVideo = z.infer<typeof ResolvedVideoSchema>;
