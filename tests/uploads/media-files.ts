/**
 * Small media files for the upload tests, rendered by the real ffmpeg: a tagged MP3 with an attached
 * cover, a plain WAV, a video with a sound track, and helpers to send a file to the upload route.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateFfmpeg, locateFfprobe } from '../../shared/media/ffmpeg-locator';
import { FFMPEG_LOCATION } from '../helpers/audio-signals';
import { TEST_ORIGIN } from '../helpers/test-app';

const located = (found: ReturnType<typeof locateFfmpeg>) => {
  if (!found.ok) throw new Error(`the upload tests need ffmpeg and ffprobe: ${found.error}`);
  return found.value;
};
export const FFMPEG = located(locateFfmpeg(FFMPEG_LOCATION));
export const FFPROBE = located(locateFfprobe(FFMPEG_LOCATION));

function ffmpeg(args: string[]): void {
  const run = spawnSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.toString()}`);
}

const sine = (seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
];

/** A 2 s MP3 with ID3 title, artist and album and a red 64×64 JPEG as its attached picture. */
export function taggedMp3WithCover(dir: string): Buffer {
  const cover = join(dir, 'cover.jpg');
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', cover]);
  const path = join(dir, 'tagged.mp3');
  ffmpeg([
    ...sine(2),
    ...['-i', cover, '-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-b:a', '64k', '-c:v', 'copy'],
    ...['-id3v2_version', '3', '-disposition:v', 'attached_pic'],
    ...['-metadata', 'title=Tëst Sóng', '-metadata', 'artist=The Testers', '-metadata', 'album=Fixtures'],
    path,
  ]);
  return readFileSync(path);
}

/** An untagged WAV of the given length (about 88 KB a second: 44.1 kHz mono s16). */
export function plainWav(dir: string, seconds = 1, name = 'plain.wav'): Buffer {
  const path = join(dir, name);
  ffmpeg([...sine(seconds), path]);
  return readFileSync(path);
}

/** A 2 s MP4 video (H.264 test pattern) with an AAC sound track. */
export function videoWithSound(dir: string): Buffer {
  const path = join(dir, 'video.mp4');
  ffmpeg([
    ...sine(2),
    ...[
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=64x64:d=2',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
    ],
    path,
  ]);
  return readFileSync(path);
}

/** A 2 s Matroska video whose sound is raw PCM, which an MP4 container cannot take as it is. */
export function videoWithPcmSound(dir: string): Buffer {
  const path = join(dir, 'pcm-video.mkv');
  ffmpeg([
    ...sine(2),
    ...['-f', 'lavfi', '-i', 'testsrc=s=32x32:d=2', '-c:v', 'mpeg4', '-c:a', 'pcm_s16le', '-shortest'],
    path,
  ]);
  return readFileSync(path);
}

/** A 1 s MP4 with a picture and no sound at all. */
export function silentVideo(dir: string): Buffer {
  const path = join(dir, 'silent.mp4');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=32x32:d=1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', path]);
  return readFileSync(path);
}

/** The codec types of a file's streams, as ffprobe sees them. */
export function streamTypes(path: string): string[] {
  const run = spawnSync(FFPROBE, [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type',
    '-of',
    'csv=p=0',
    path,
  ]);
  return run.stdout.toString().trim().split('\n').filter(Boolean);
}

export const filesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};

export interface UploadCall {
  name: string;
  bytes: Uint8Array | ReadableStream<Uint8Array>;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A POST to the upload route as a client sends it: raw bytes, the name in `x-filename`. */
export function uploadRequest({
  name,
  bytes,
  contentType = 'audio/mpeg',
  headers = {},
}: UploadCall): Request {
  return new Request(`${TEST_ORIGIN}/api/music/local/upload`, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-filename': name, ...headers },
    body: bytes,
    duplex: 'half',
  } as RequestInit);
}
