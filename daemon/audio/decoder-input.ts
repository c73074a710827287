/**
 * What a decoder reads from. Each music source resolves a song to one of these at play time.
 */
import type { Readable } from 'node:stream';

/** Per-source HTTP headers: some platforms refuse audio requests without their Referer or login cookie. */
export interface HttpHeaders {
  referer?: string;
  userAgent?: string;
  cookie?: string;
}

/** Raw s16le PCM from another process, when its rate or channel count is not ours (e.g. librespot). */
export interface RawPcmFormat {
  sampleRateHz: number;
  channels: number;
}

export type DecoderInput =
  | { kind: 'url'; url: string; headers?: HttpHeaders }
  | { kind: 'file'; path: string }
  /** The caller owns the stream (and the process behind it); the decoder only reads and unpipes it. */
  | { kind: 'stream'; stream: Readable; rawFormat?: RawPcmFormat };
