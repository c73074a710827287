/**
 * Finds the ffmpeg executable, in the order ARCHITECTURE.md fixes:
 * 1. `FFMPEG_PATH` (when set it must point at an executable; a typo should fail loudly, not fall back),
 * 2. the `ffmpeg-static` package's binary, when that optional dependency is installed and its download
 *    actually produced the file (its install script needs internet, so the package may exist without it),
 * 3. `ffmpeg` on `PATH` (the Debian `ffmpeg` package).
 *
 * ffprobe (upload checks) is looked for beside the ffmpeg found, since every ffmpeg build ships the two
 * together (the Debian package does); `ffmpeg-static` ships no ffprobe, so `PATH` comes next.
 * The daemon decodes with ffmpeg; the api probes uploads; both find them here.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { err, ok, type Result } from '../result';

export const FFMPEG_NOT_FOUND = 'ffmpeg not found: install the ffmpeg package or set FFMPEG_PATH';
export const FFPROBE_NOT_FOUND =
  'ffprobe not found: install the ffmpeg package (it ships ffprobe) or put ffprobe beside FFMPEG_PATH';

/** Where to look, from the configuration (shared/config.ts). */
export interface FfmpegLocation {
  /** `FFMPEG_PATH`. */
  configuredPath: string | undefined;
  /** `PATH`: folders separated by the platform's delimiter. */
  searchPath: string;
  /**
   * The project's own track decoder (native/pcm-decoder.c, built into build/ by `make`), unless
   * AUDIO_DECODER=ffmpeg; absent when it could not be built.
   */
  decoderPath?: string | undefined;
}

export interface FfmpegLocatorOptions extends FfmpegLocation {
  /** Returns the path `ffmpeg-static` exports, or undefined when the package is not installed. */
  resolveStaticBinary?: () => string | undefined;
}

export function locateFfmpeg(options: FfmpegLocatorOptions): Result<string> {
  const configured = options.configuredPath;
  if (configured) {
    return isExecutable(configured)
      ? ok(configured)
      : err(`${FFMPEG_NOT_FOUND} (FFMPEG_PATH=${configured} is not an executable file)`);
  }
  const staticBinary = (options.resolveStaticBinary ?? resolveFfmpegStatic)();
  if (staticBinary && isExecutable(staticBinary)) return ok(staticBinary);
  const onPath = findOnPath('ffmpeg', options.searchPath);
  return onPath ? ok(onPath) : err(FFMPEG_NOT_FOUND);
}

/**
 * What decodes a playing track: the explicitly configured FFMPEG_PATH, else the project's pcm-decoder
 * (it takes the same arguments and writes the same PCM with half the memory of Debian's ffmpeg), else
 * ffmpeg as `locateFfmpeg` finds it. Only the track decoder: cover art and upload checks need ffmpeg.
 */
export function locateDecoder(options: FfmpegLocatorOptions): Result<string> {
  if (!options.configuredPath && options.decoderPath && isExecutable(options.decoderPath))
    return ok(options.decoderPath);
  return locateFfmpeg(options);
}

/** ffprobe from the same folder as the ffmpeg `locateFfmpeg` finds, else from `PATH`. */
export function locateFfprobe(options: FfmpegLocatorOptions): Result<string> {
  const ffmpeg = locateFfmpeg(options);
  if (ffmpeg.ok) {
    const beside = join(dirname(ffmpeg.value), ffmpeg.value.endsWith('.exe') ? 'ffprobe.exe' : 'ffprobe');
    if (isExecutable(beside)) return ok(beside);
  }
  const onPath = findOnPath('ffprobe', options.searchPath);
  return onPath ? ok(onPath) : err(FFPROBE_NOT_FOUND);
}

function resolveFfmpegStatic(): string | undefined {
  try {
    const exported: unknown = createRequire(import.meta.url)('ffmpeg-static');
    return typeof exported === 'string' ? exported : undefined;
  } catch {
    return undefined;
  }
}

function findOnPath(name: string, pathVariable: string): string | undefined {
  for (const dir of pathVariable.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
