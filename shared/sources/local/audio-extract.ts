/**
 * The ffmpeg steps of an upload: keep only the audio of a video (copied as it is when the container
 * allows, else re-encoded to Opus), and take out an embedded cover picture. ffmpeg runs without a
 * shell, with a deadline, and writes files we name, so nothing the client sent reaches its arguments.
 */
import { readFile, stat, unlink } from 'node:fs/promises';
import { runBounded } from '../../exec/bounded-process';
import { err, ok, type Result } from '../../result';
import { type EmbeddedCover, UPLOAD_INPUT_OPTIONS } from './audio-probe';

const FFMPEG_LIMITS = { timeoutMs: 10 * 60_000, maxOutputBytes: 64_000 };
const COVER_LIMITS = { timeoutMs: 30_000, maxOutputBytes: 64_000 };
/** Covers live in the database; a bigger picture is dropped rather than stored. */
export const COVER_MAX_BYTES = 2 * 1024 * 1024;

export type CoverType = 'image/jpeg' | 'image/png';
export interface Cover {
  data: Buffer;
  type: CoverType;
}

async function runFfmpeg(ffmpeg: string, args: string[], limits = FFMPEG_LIMITS): Promise<Result<void>> {
  const run = await runBounded(ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], limits);
  if (run.kind === 'notStarted') return err(`ffmpeg could not be started (${run.message})`);
  if (run.kind !== 'exited') return err('ffmpeg took too long on the file');
  if (run.code !== 0)
    return err(`ffmpeg could not convert the file (${run.stderr.trim().split('\n').pop()})`);
  return ok(undefined);
}

/**
 * Writes the first audio track of `input` alone: stream copy into `copyPath` (its extension picks the
 * container), or, when that container cannot hold the codec, Opus into `transcodePath`.
 * Answers the path written.
 */
export async function keepAudioOnly(
  ffmpeg: string,
  input: string,
  copyPath: string,
  transcodePath: string,
): Promise<Result<string>> {
  const copied = await runFfmpeg(ffmpeg, [
    ...UPLOAD_INPUT_OPTIONS,
    ...['-i', input, '-map', '0:a:0', '-c:a', 'copy', copyPath],
  ]);
  if (copied.ok) return ok(copyPath);
  await unlink(copyPath).catch(() => undefined);
  const encoded = await runFfmpeg(ffmpeg, [
    ...UPLOAD_INPUT_OPTIONS,
    ...['-i', input, '-map', '0:a:0', '-c:a', 'libopus', '-b:a', '192k', '-f', 'ogg', transcodePath],
  ]);
  if (encoded.ok) return ok(transcodePath);
  await unlink(transcodePath).catch(() => undefined);
  return encoded;
}

/** The embedded picture as JPEG or PNG (other codecs re-encoded to JPEG), written via `scratchBase`. */
export async function extractCover(
  ffmpeg: string,
  input: string,
  cover: EmbeddedCover,
  scratchBase: string,
): Promise<Result<Cover>> {
  const type: CoverType = cover.codec === 'png' ? 'image/png' : 'image/jpeg';
  const path = `${scratchBase}.${type === 'image/png' ? 'png' : 'jpg'}`;
  const codec = cover.codec === 'png' || cover.codec === 'mjpeg' ? 'copy' : 'mjpeg';
  try {
    const written = await runFfmpeg(
      ffmpeg,
      [
        ...UPLOAD_INPUT_OPTIONS,
        ...[
          '-i',
          input,
          '-map',
          `0:${cover.streamIndex}`,
          '-frames:v',
          '1',
          '-c:v',
          codec,
          '-update',
          '1',
          path,
        ],
      ],
      COVER_LIMITS,
    );
    if (!written.ok) return written;
    if ((await stat(path)).size > COVER_MAX_BYTES) return err('the embedded cover is larger than 2 MB');
    return ok({ data: await readFile(path), type });
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
