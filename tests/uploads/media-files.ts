/**
 * Small media files for the upload tests, rendered by the real ffmpeg: a tagged MP3 with an attached
 * cover, a plain WAV, a sine of known loudness, a video with a sound track, and helpers to send a file to the upload route.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Song } from '../../shared/domain/schemas';
import { locateFfmpeg, locateFfprobe } from '../../shared/media/ffmpeg-locator';
import { FFMPEG_LOCATION } from '../../testkit/audio-signals';
import type { CookieJar } from '../../testkit/cookie-jar';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

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

/** A 1 s file in the container `extension` names, with these tags written by ffmpeg (`key=value`). */
export function taggedAudio(dir: string, extension: string, tags: Record<string, string>): Buffer {
  const path = join(dir, `tagged.${extension}`);
  ffmpeg([
    ...sine(1),
    ...Object.entries(tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]),
    path,
  ]);
  return readFileSync(path);
}

export interface SineFile {
  /** Of full scale in each channel (1 = 0 dBFS peak). */
  amplitude: number;
  seconds: number;
  /** The container, by extension (`wav`, `flac`, `mp3`, `opus`, …). */
  extension: string;
  /** Tags ffmpeg writes as they are (`key=value`). */
  tags?: Record<string, string>;
}

/**
 * A stereo 997 Hz sine, the same in both channels. BS.1770 defines its loudness: the K-weighting
 * gains about 0.69 dB at 997 Hz, which the formula's -0.691 takes back, and the two channels' mean
 * squares (A²/2 each) sum to A², so it reads 20·log10(A) LUFS with a peak of 20·log10(A) dBFS.
 */
export function stereoSine(dir: string, { amplitude, seconds, extension, tags = {} }: SineFile): Buffer {
  const path = join(dir, `sine.${extension}`);
  ffmpeg([
    ...['-f', 'lavfi', '-i', `aevalsrc='${amplitude}*sin(2*PI*997*t)':s=48000:d=${seconds}:c=stereo`],
    ...Object.entries(tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]),
    path,
  ]);
  return readFileSync(path);
}

/** One ID3v2 frame: its four-letter id and its body. */
export interface Id3Frame {
  id: string;
  body: Buffer;
}

const syncsafe = (n: number) => Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/**
 * A 1 s MP3 whose ID3v2 tag (version 3 or 4) holds exactly these frames. ffmpeg writes lyrics only as
 * a TXXX frame, so the USLT and SYLT frames real taggers write are put together here, byte by byte
 * after the ID3v2.3/2.4 specifications, in front of an MP3 ffmpeg rendered without a tag.
 */
export function mp3WithId3Frames(dir: string, frames: Id3Frame[], version: 3 | 4 = 3): Buffer {
  const path = join(dir, 'untagged.mp3');
  ffmpeg([...sine(1), '-write_id3v2', '0', '-write_xing', '0', path]);
  const body = Buffer.concat(
    frames.map(({ id, body }) =>
      Buffer.concat([
        Buffer.from(id, 'latin1'),
        version === 4 ? syncsafe(body.length) : uint32(body.length),
        Buffer.alloc(2),
        body,
      ]),
    ),
  );
  const header = Buffer.concat([Buffer.from([0x49, 0x44, 0x33, version, 0, 0]), syncsafe(body.length)]);
  return Buffer.concat([header, body, readFileSync(path)]);
}

/** An ID3 USLT frame (unsynchronised lyrics) in UTF-8. */
export const usltFrame = (text: string, language = 'eng'): Id3Frame => ({
  id: 'USLT',
  body: Buffer.concat([
    Buffer.from([3]),
    Buffer.from(language, 'latin1'),
    Buffer.from([0]),
    Buffer.from(text),
  ]),
});

/**
 * An ID3 SYLT frame (synchronised lyrics, times in milliseconds): UTF-8 (encoding 3) or UTF-16 with a
 * byte order mark on every string (encoding 1).
 */
export function syltFrame(entries: [text: string, ms: number][], encoding: 1 | 3 = 3): Id3Frame {
  const text = (value: string) =>
    encoding === 3
      ? Buffer.concat([Buffer.from(value), Buffer.from([0])])
      : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(value, 'utf16le'), Buffer.from([0, 0])]);
  return {
    id: 'SYLT',
    body: Buffer.concat([
      Buffer.from([encoding]),
      Buffer.from('eng', 'latin1'),
      Buffer.from([2, 1]), // times in ms; content: lyrics
      text(''),
      ...entries.map(([value, ms]) => Buffer.concat([text(value), uint32(ms)])),
    ]),
  };
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

/** Sends a file to the upload route as the browser holding `jar`: the status and the JSON answer. */
export async function sendUpload(t: TestApp, call: UploadCall, jar: CookieJar) {
  const response = await t.fetch(uploadRequest(call), jar);
  const body = (await response.json()) as { song?: Song; error?: string };
  return { status: response.status, ...body };
}
