/**
 * The ffmpeg command line for one track: any input in, 48 kHz stereo s16le out on stdout. Every local
 * user can read a command line, so it never carries a header: a URL here is one without secrets (the
 * stream relay's loopback URL, or a stream served by this process).
 *
 * Request forgery: ffmpeg reads only what it is given. Every input carries a protocol whitelist of
 * what its kind needs (a file, the pipe, http to the relay) and a format whitelist of audio
 * containers, so no demuxer that opens other addresses (HLS, DASH, concat, …) runs on it. The one
 * exception is an HLS stream (`hlsPlaylist`), a user's or a platform's (a YouTube live): ffmpeg needs
 * its HLS demuxer there, and as the protocol whitelist cannot tell hosts apart, the guarantee is the
 * relay's: the playlists it serves are written by the relay itself and name only the relay
 * (hls-playlist.ts), and what it serves as media there is never a manifest. A DASH or any other
 * manifest has no demuxer on any input.
 */
import { AUDIO_CONTAINER_FORMATS } from '../../../shared/media/audio-containers';
import { PCM_FORMAT } from '../pcm-format';
import type { DecoderInput } from './decoder-input';

/**
 * What ffmpeg opens: a URL without headers, a file, or its stdin. `hlsPlaylist`: the URL is the
 * relay's HLS playlist, written by the relay (the only input the HLS demuxer may read).
 */
export type FfmpegInput =
  | Exclude<DecoderInput, { kind: 'url' }>
  | { kind: 'url'; url: string; hlsPlaylist?: boolean };

/** `stopAtSeconds` cuts the output at that input position (a preview of a longer stream). */
export function buildFfmpegArgs(input: FfmpegInput, seekSeconds: number, stopAtSeconds?: number): string[] {
  // Only errors on stderr: the tail we keep then ends with the reason ffmpeg failed. One thread each
  // for the decoder and the resampling filter: an audio decode needs no more, and with a hundred
  // ffmpegs on a few cores extra threads only add wake-ups that compete with the frame clock.
  const args = ['-hide_banner', '-loglevel', 'error', '-filter_threads', '1'];
  if (input.kind !== 'stream') args.push('-nostdin');
  // Streamed responses drop now and then mid-track; reconnecting (with a Range request) beats ending
  // the song early. These are options of ffmpeg's http protocol, which rejects them for other schemes.
  if (input.kind === 'url' && /^https?:/i.test(input.url))
    args.push('-reconnect', '1', '-reconnect_streamed', '1', '-reconnect_delay_max', '5');
  if (input.kind === 'stream' && input.rawFormat) {
    args.push(
      '-f',
      's16le',
      '-ar',
      String(input.rawFormat.sampleRateHz),
      '-ac',
      String(input.rawFormat.channels),
    );
  }
  args.push(...inputWhitelists(input));
  // Before -i, -ss seeks the input (fast, by index or by skipping) instead of decoding and dropping.
  if (seekSeconds > 0) args.push('-ss', seekSeconds.toFixed(3));
  args.push('-threads', '1', '-i', inputTarget(input));
  // After -i, -t limits the output; counted from the seek point, so the cut stays at the same position.
  if (stopAtSeconds !== undefined) args.push('-t', Math.max(0, stopAtSeconds - seekSeconds).toFixed(3));
  args.push(
    '-vn',
    '-f',
    's16le',
    '-ar',
    String(PCM_FORMAT.sampleRateHz),
    '-ac',
    String(PCM_FORMAT.channels),
    'pipe:1',
  );
  return args;
}

/** The protocols and formats ffmpeg may use for the input (and whatever the input names). */
function inputWhitelists(input: FfmpegInput): string[] {
  const [protocols, formats] =
    input.kind === 'file'
      ? ['file', AUDIO_CONTAINER_FORMATS]
      : input.kind === 'stream'
        ? ['pipe', input.rawFormat ? 's16le' : AUDIO_CONTAINER_FORMATS]
        : input.hlsPlaylist
          ? // crypto: AES-128 segments, read as crypto+http; their keys come from the relay too.
            ['http,tcp,crypto', `hls,${AUDIO_CONTAINER_FORMATS}`]
          : ['http,tcp', AUDIO_CONTAINER_FORMATS];
  return ['-protocol_whitelist', protocols, '-format_whitelist', formats];
}

function inputTarget(input: FfmpegInput): string {
  switch (input.kind) {
    case 'url':
      return input.url;
    case 'file':
      return input.path;
    case 'stream':
      return 'pipe:0';
  }
}
