/**
 * What a decoder reads from. Each music source resolves a song to one of these at play time.
 */
import type { Readable } from 'node:stream';
import type { UserAddress } from '../../../shared/sources/music-source';

/**
 * Per-source HTTP headers: some platforms refuse audio requests without their Referer or (a media
 * server) token. They are sent by the daemon's stream relay (stream-relay.ts), never put on a command
 * line. No login cookie: it never goes to an audio host (shared/sources/music-source.ts StreamHeaders).
 */
export interface HttpHeaders {
  referer?: string;
  userAgent?: string;
  authorization?: string;
}

/** Raw s16le PCM from another process, when its rate or channel count is not ours (e.g. librespot). */
export interface RawPcmFormat {
  sampleRateHz: number;
  channels: number;
}

/**
 * An http(s) URL goes through the stream relay. `servedLocally`: served by this process itself
 * (Spotify's PCM relay), which bounds its own silences and names no secret: ffmpeg opens it directly.
 * `hls`: a platform's stream that is an HLS playlist (a YouTube live); a user's says it in `userAddress`.
 */
export interface UrlInput {
  kind: 'url';
  url: string;
  headers?: HttpHeaders;
  servedLocally?: boolean;
  hls?: boolean;
  userAddress?: UserAddress;
}

export type DecoderInput =
  | UrlInput
  | { kind: 'file'; path: string }
  /** The caller owns the stream (and the process behind it); the decoder only reads and unpipes it. */
  | { kind: 'stream'; stream: Readable; rawFormat?: RawPcmFormat };

/** Whether the input is an HLS playlist (a platform's or a user's), which the relay serves written anew. */
export function isHlsPlaylist(input: DecoderInput): boolean {
  return input.kind === 'url' && (input.hls === true || input.userAddress?.hls === true);
}
