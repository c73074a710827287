/**
 * The songs the runtime bench plays, as `local` uploads: MP3 at 44.1 kHz (so every decoder really
 * decodes and resamples, as it would for a song from a music platform), a different file per bot.
 * Encoding a long MP3 per bot would take minutes, so a few 10 s segments (two tones a fifth apart
 * over pink noise, each segment in another key) are encoded once and each bot's file strings them
 * together in its own order. Written without ID3 tag or Xing header, a segment is a bare stream of
 * MP3 frames whose first frame borrows nothing from a bit reservoir, so joined segments decode as one
 * stream.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Db } from '../../shared/db/client';
import type { Song } from '../../shared/domain/schemas';
import { FFMPEG, makeTempDir } from '../../testkit/audio-signals';
import { addUpload } from '../../testkit/tone-uploads';

export const SEGMENT_SECONDS = 10;
/** Prime, so start and stride give 13 · 12 = 156 different orders. */
const SEGMENT_COUNT = 13;
const SAMPLE_RATE_HZ = 44_100;

/** The order of segments in bot `index`'s file: distinct for every index below 156. */
export function segmentOrder(index: number, length: number): number[] {
  const start = index % SEGMENT_COUNT;
  const stride = 1 + (Math.floor(index / SEGMENT_COUNT) % (SEGMENT_COUNT - 1));
  return Array.from({ length }, (_, k) => (start + k * stride) % SEGMENT_COUNT);
}

/** Encodes `filter` (an ffmpeg filter graph with output [out]) over lavfi inputs as raw MP3 frames. */
function encodeMp3(inputs: string[], filter: string): Buffer {
  const dir = makeTempDir('bench-media-');
  try {
    const path = dir.file('segment.mp3');
    const run = spawnSync(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...inputs.flatMap((input) => ['-f', 'lavfi', '-i', input]),
      ...['-filter_complex', filter, '-map', '[out]'],
      // No ID3 tag and no Xing header: the segments are joined frame streams.
      ...['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '0', '-write_xing', '0', path],
    ]);
    if (run.status !== 0) throw new Error(`ffmpeg could not encode a bench segment: ${run.stderr}`);
    return readFileSync(path);
  } finally {
    dir.remove();
  }
}

const sine = (frequencyHz: number, seconds: number) =>
  `sine=frequency=${frequencyHz.toFixed(2)}:sample_rate=${SAMPLE_RATE_HZ}:duration=${seconds}`;

/** Segment `k`: a root and its fifth (left, right; −18 dBFS each) over pink noise, a semitone above `k − 1`. */
function musicSegment(k: number): Buffer {
  const root = 220 * 2 ** (k / 12);
  const noise = `anoisesrc=color=pink:amplitude=0.05:sample_rate=${SAMPLE_RATE_HZ}:duration=${SEGMENT_SECONDS}`;
  return encodeMp3(
    [sine(root, SEGMENT_SECONDS), sine(root * 1.5, SEGMENT_SECONDS), noise],
    '[2]asplit[n1][n2];[0][n1]amix=inputs=2:normalize=0[l];[1][n2]amix=inputs=2:normalize=0[r];[l][r]amerge=inputs=2[out]',
  );
}

/** A pure tone on both channels. */
function toneSegment(frequencyHz: number, seconds: number): Buffer {
  return encodeMp3([sine(frequencyHz, seconds)], '[0]pan=stereo|c0=c0|c1=c0[out]');
}

export class BenchMedia {
  private constructor(private readonly segments: Buffer[]) {}

  static render(): BenchMedia {
    return new BenchMedia(Array.from({ length: SEGMENT_COUNT }, (_, k) => musicSegment(k)));
  }

  /** Bot `index`'s own song, at least `seconds` long. */
  botSong(db: Db, dataDir: string, index: number, seconds: number): Promise<Song> {
    const order = segmentOrder(index, Math.ceil(seconds / SEGMENT_SECONDS));
    return addUpload(db, dataDir, {
      name: `bench ${index}`,
      extension: 'mp3',
      durationSeconds: order.length * SEGMENT_SECONDS,
      write: (path) => writeFileSync(path, Buffer.concat(order.map((k) => this.segments[k]!))),
    });
  }
}

/** The latency song: `lowHz` for the first `halfSeconds`, then `highHz`, so a seek's landing is audible. */
export function twoToneSong(
  db: Db,
  dataDir: string,
  tones: { lowHz: number; highHz: number; halfSeconds: number },
): Promise<Song> {
  const halves = [toneSegment(tones.lowHz, tones.halfSeconds), toneSegment(tones.highHz, tones.halfSeconds)];
  return addUpload(db, dataDir, {
    name: 'bench two tones',
    extension: 'mp3',
    durationSeconds: 2 * tones.halfSeconds,
    write: (path) => writeFileSync(path, Buffer.concat(halves)),
  });
}
