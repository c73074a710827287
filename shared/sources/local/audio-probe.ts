/**
 * What ffprobe finds in an uploaded file: whether it really holds audio, how long it is, its tags
 * (lyrics and loudness included), whether it carries a picture track (a video) and an embedded cover. The shape is ffprobe's
 * `-print_format json -show_format -show_streams` output (fftools/ffprobe.c; the field names are
 * ffprobe's own).
 *
 * The file is probed under a name without an extension, so ffprobe judges the bytes alone: with a
 * `.mp3` name it would "find" MPEG audio in almost any binary (an executable probes as mp1 with score 1).
 */
import { z } from 'zod';
import { runBounded } from '../../exec/bounded-process';
import { err, ok, type Result } from '../../result';
import { loudnessFromTags } from './loudness-tags';
import type { UploadLoudness } from './stored-loudness';

/**
 * The only demuxers an upload is opened with: those of the whitelisted extensions (ffmpeg's names:
 * `mov` reads mp4 and m4a, `matroska` mkv, mka and webm, `ogg` also opus and oga, `asf` wma). Without
 * this, a text playlist sent as `song.mp3` (HLS, ffconcat...) probes as playable and makes ffmpeg read
 * the files it names, anywhere on the server, as the song.
 */
export const UPLOAD_INPUT_OPTIONS = ['-format_whitelist', 'mp3,flac,mov,aac,ogg,wav,asf,ape,matroska'];

/** Below ffprobe's own retry threshold (AVPROBE_SCORE_RETRY = 25) a format guess is noise. */
const MIN_PROBE_SCORE = 25;
const PROBE_LIMITS = { timeoutMs: 30_000, maxOutputBytes: 1_000_000 };

const TagsSchema = z.record(z.string(), z.string()).optional();

const StreamSchema = z.object({
  index: z.number().int(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  duration: z.string().optional(),
  disposition: z.object({ attached_pic: z.number().optional() }).optional(),
  tags: TagsSchema,
});

const ProbeSchema = z.object({
  streams: z.array(StreamSchema).default([]),
  format: z
    .object({
      format_name: z.string(),
      duration: z.string().optional(),
      probe_score: z.number().optional(),
      tags: TagsSchema,
    })
    .optional(),
});

export interface EmbeddedCover {
  streamIndex: number;
  /** ffprobe's codec name of the picture (`mjpeg`, `png`, …). */
  codec: string;
}

export interface ProbedAudio {
  durationSeconds: number;
  audioCodec: string;
  /** A moving-picture track (not a cover): the file is a video whose audio is to be kept. */
  hasVideo: boolean;
  cover: EmbeddedCover | undefined;
  title: string | undefined;
  artist: string | undefined;
  album: string | undefined;
  /** Lyrics embedded as text (USLT, LYRICS/UNSYNCEDLYRICS, ©lyr), as written: LRC or plain lines. */
  lyrics: string | undefined;
  /** What its ReplayGain or R128 tags say of its loudness (loudness-tags.ts). */
  loudness: UploadLoudness | undefined;
}

export const NOT_AUDIO = 'the file holds no audio that can be played';

/**
 * The keys ffprobe gives embedded lyrics: an ID3 USLT frame as `lyrics-<language>` (or
 * `lyrics-<description>-<language>`), MP4 `©lyr` and ffmpeg's own tag as `lyrics`, Vorbis comments
 * and ID3 TXXX as `LYRICS` or `UNSYNCEDLYRICS`.
 */
const LYRICS_KEY = /^(lyrics(-.+)?|unsyncedlyrics)$/;

/** Tags are case-free (ID3 frames read as `title`, Vorbis comments often as `TITLE`). */
function tagReader(...sources: (Record<string, string> | undefined)[]) {
  return (name: string | RegExp): string | undefined => {
    const wanted = (key: string) => (typeof name === 'string' ? key === name : name.test(key));
    for (const tags of sources) {
      for (const [key, value] of Object.entries(tags ?? {})) {
        if (wanted(key.toLowerCase()) && value.trim()) return value.trim();
      }
    }
    return undefined;
  };
}

const seconds = (value: string | undefined): number => {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 0;
};

export interface ProbeAudioOptions {
  /** Options before the input beyond the format whitelist (a protocol whitelist for a URL). */
  inputOptions?: readonly string[];
  timeoutMs?: number;
}

/** Probes `input`: a file's path, or a URL (give `inputOptions` a protocol whitelist then). */
export async function probeAudio(
  ffprobe: string,
  input: string,
  options: ProbeAudioOptions = {},
): Promise<Result<ProbedAudio>> {
  const run = await runBounded(
    ffprobe,
    [
      ...['-v', 'error', ...UPLOAD_INPUT_OPTIONS, ...(options.inputOptions ?? [])],
      ...['-print_format', 'json', '-show_format', '-show_streams', input],
    ],
    { ...PROBE_LIMITS, timeoutMs: options.timeoutMs ?? PROBE_LIMITS.timeoutMs },
  );
  if (run.kind === 'notStarted') return err(`ffprobe could not be started (${run.message})`);
  if (run.kind !== 'exited') return err('ffprobe took too long to read the file');
  if (run.code !== 0) return err(NOT_AUDIO);
  let json: unknown;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    return err('ffprobe answered with something that is not JSON');
  }
  const parsed = ProbeSchema.safeParse(json);
  if (!parsed.success) return err('ffprobe answered in an unexpected shape');
  const { streams, format } = parsed.data;
  const audio = streams.find((s) => s.codec_type === 'audio' && s.codec_name);
  if (!format || !audio || (format.probe_score ?? 0) < MIN_PROBE_SCORE) return err(NOT_AUDIO);
  const pictures = streams.filter((s) => s.codec_type === 'video');
  const cover = pictures.find((s) => s.disposition?.attached_pic === 1 && s.codec_name);
  const tag = tagReader(format.tags, audio.tags);
  return ok({
    durationSeconds: seconds(format.duration) || seconds(audio.duration),
    audioCodec: audio.codec_name ?? '',
    hasVideo: pictures.some((s) => s.disposition?.attached_pic !== 1),
    cover: cover && { streamIndex: cover.index, codec: cover.codec_name ?? '' },
    title: tag('title'),
    artist: tag('artist') ?? tag('album_artist'),
    album: tag('album'),
    lyrics: tag(LYRICS_KEY),
    loudness: loudnessFromTags(tag),
  });
}
