/**
 * The `video_b` source at play time: asks yt-dlp for the video's best audio-only format (WebM/Opus
 * first, which ffmpeg decodes without a video track) and hands its URL to the decoder with the
 * request headers yt-dlp says that format needs (googlevideo URLs are tied to the User-Agent they
 * were made for).
 *
 * Format selection (`-f bestaudio[ext=webm]/bestaudio/best`) from yt-dlp/yt-dlp README.md ("FORMAT
 * SELECTION"); a single chosen format is merged into the answer's top level (`url`, `http_headers`),
 * a merged one is listed in `requested_formats` (yt_dlp/YoutubeDL.py, `process_video_result`).
 *
 * A live video has only HLS formats: the chosen one's `url` is a playlist on manifest.googlevideo.com
 * and its `protocol` `m3u8_native` (or `m3u8`). The stream is then marked `hls`, so the daemon's relay
 * serves it written anew (its segments fetched by the relay, with the same User-Agent) and the decoder
 * reads it with its HLS demuxer, which it is allowed for no other platform stream.
 */
import { err, ok, type Result } from '../../result';
import type { MusicSource, ResolvedStream, StreamHeaders, StreamRequest } from '../music-source';
import { watchUrl, youtubeVideoId } from './youtube-ids';
import { type ResolvedVideo, ResolvedVideoSchema } from './youtube-schemas';
import type { YtDlp } from './yt-dlp';

export const AUDIO_FORMAT = 'bestaudio[ext=webm]/bestaudio/best';

interface ChosenFormat {
  url: string;
  protocol?: string | null | undefined;
  http_headers?: Record<string, string> | null | undefined;
}

export class YoutubeSource implements MusicSource {
  readonly platform = 'video_b' as const;

  constructor(private readonly ytDlp: YtDlp) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const videoId = youtubeVideoId(song.id);
    if (videoId === undefined) return err(`"${song.id}" is not a YouTube video id or link`);
    const answer = await this.ytDlp.json(
      ['-f', AUDIO_FORMAT, '--dump-single-json', '--no-playlist', '--', watchUrl(videoId)],
      ResolvedVideoSchema,
    );
    if (!answer.ok) return err(answer.error.message);
    const format = chosenFormat(answer.value);
    if (!format) return err('yt-dlp found no audio for this YouTube video');
    const headers = streamHeaders(format.http_headers ?? {});
    const hls = format.protocol?.startsWith('m3u8') === true;
    return ok({
      input: { kind: 'url', url: format.url, headers, ...(hls && { hls }) },
      ...(answer.value.is_live === true && { live: true }),
    });
  }
}

function chosenFormat(video: ResolvedVideo): ChosenFormat | undefined {
  if (video.url) return { url: video.url, protocol: video.protocol, http_headers: video.http_headers };
  const parts = video.requested_formats ?? [];
  return parts.find((part) => part.acodec !== 'none') ?? parts[0];
}

/**
 * The headers ffmpeg must send, from yt-dlp's `http_headers` (header names in any case). A Cookie there
 * is not passed on: the googlevideo URL is signed and plays without the YouTube login (yt-dlp itself
 * keeps cookies out of `http_headers` since its 2023.07.06 cookie-leak fix, GHSA-v8mc-9377-rwjj).
 */
function streamHeaders(headers: Record<string, string>): StreamHeaders {
  const byName = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const userAgent = byName.get('user-agent');
  const referer = byName.get('referer');
  return { ...(userAgent && { userAgent }), ...(referer && { referer }) };
}
