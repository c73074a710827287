/**
 * Turns a song's cover art into a voice-server avatar: fetched over HTTP(S), scaled and re-encoded as
 * JPEG by ffmpeg until it fits the 200 KB avatar limit (SPEC Limits). The download is capped in time
 * and size, and goes through the request-forgery guard: a cover URL usually comes from a platform,
 * but a song object can also come from a client (`/play-song` takes one as it is), so the address is
 * a user's like any other.
 */
import { launchProcess } from '../../../shared/exec/process-launcher';
import { guardedFetch } from '../../../shared/net/guarded-fetch';
import { readBounded, TOO_LARGE } from '../../../shared/net/read-bounded';
import { err, ok, type Result } from '../../../shared/result';
import type { StoredSettings } from '../../../shared/settings/settings';

export const AVATAR_MAX_BYTES = 200 * 1024;
const DOWNLOAD_TIMEOUT_MS = 10_000;
export const DOWNLOAD_MAX_BYTES = 10 * 1024 * 1024;
const CONVERT_TIMEOUT_MS = 10_000;
/** Tried in order until one fits: [edge in pixels, JPEG quantizer (2 best … 31 worst)]. */
const ENCODINGS: readonly [number, number][] = [
  [300, 3],
  [300, 8],
  [200, 12],
  [128, 20],
];

/**
 * `allowPrivateHosts`: the address may be a private or loopback one (the admin's Jellyfin server on
 * the LAN, or the admin allowed private hosts for streams); otherwise only public addresses are asked.
 */
export async function coverArtAvatar(
  url: string,
  ffmpegPath: string,
  allowPrivateHosts: boolean,
): Promise<Result<Uint8Array>> {
  const image = await download(url, allowPrivateHosts);
  if (!image.ok) return image;
  for (const [edge, quality] of ENCODINGS) {
    const jpeg = await toJpeg(image.value, ffmpegPath, edge, quality);
    if (!jpeg.ok) return jpeg;
    if (jpeg.value.length <= AVATAR_MAX_BYTES) return jpeg;
  }
  return err('the cover art does not fit in 200 KB');
}

/**
 * Whether a cover may be on a private host: the admin's own Jellyfin server (its covers are its own
 * addresses, often on the LAN), or any when the admin allows private hosts for streams.
 */
export function coverMayBePrivate(
  url: string,
  settings: Pick<StoredSettings, 'streamAllowPrivateHosts' | 'jellyfin'>,
): boolean {
  if (settings.streamAllowPrivateHosts) return true;
  const origin = (address: string) => URL.parse(address)?.origin;
  const jellyfin = origin(settings.jellyfin.serverUrl);
  return jellyfin !== undefined && jellyfin === origin(url);
}

async function download(url: string, allowPrivateHosts: boolean): Promise<Result<Uint8Array>> {
  if (!/^https?:\/\//i.test(url)) return err('the cover art is not an http(s) URL');
  try {
    const answer = await guardedFetch(url, {
      allowPrivateHosts,
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
    });
    if (!answer.ok) return err(`could not download the cover art: ${answer.error.message}`);
    const { response } = answer.value;
    if (!response.ok) return err(`the cover art answered ${response.status}`);
    // Bounded while reading: a picture that never ends is not held in memory until the deadline.
    const bytes = await readBounded(response, DOWNLOAD_MAX_BYTES);
    if (bytes === TOO_LARGE) return err('the cover art is too large');
    if (bytes.length === 0) return err('the cover art is empty');
    return ok(new Uint8Array(bytes));
  } catch (error) {
    return err(`could not download the cover art: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function toJpeg(
  image: Uint8Array,
  ffmpegPath: string,
  edge: number,
  quality: number,
): Promise<Result<Uint8Array>> {
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    'pipe:0',
    '-frames:v',
    '1',
    '-vf',
    `scale=${edge}:${edge}:force_original_aspect_ratio=decrease`,
    '-q:v',
    String(quality),
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    'pipe:1',
  ];
  return new Promise((resolve) => {
    // Through the thread's launcher: this runs on the daemon's thread, the frame clock's.
    const child = launchProcess(ffmpegPath, args);
    const chunks: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill(), CONVERT_TIMEOUT_MS);
    child.once('spawn', () => {
      const io = child.io;
      io?.on('data', (chunk: Buffer) => chunks.push(chunk));
      // ffmpeg may stop reading early (bad image); the resulting EPIPE is reported through `close`.
      io?.on('error', () => undefined);
      io?.end(image);
    });
    child.on('stderr', (chunk) => {
      stderr = (stderr + chunk.toString()).slice(-500);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(err(`ffmpeg could not convert the cover art: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const jpeg = Buffer.concat(chunks);
      if (code === 0 && jpeg.length > 0) resolve(ok(new Uint8Array(jpeg)));
      else resolve(err(`ffmpeg could not convert the cover art: ${stderr.trim() || `exit ${code}`}`));
    });
  });
}
