/**
 * A music source (one platform adapter) as the daemon uses it at play time. Songs travel through the
 * queue as metadata only; the playable stream is resolved when a song is about to play, because
 * platform URLs expire within minutes.
 *
 * Contract for every implementation:
 * - `resolveStream` never throws for outside failures (network, missing file, login, region lock):
 *   it returns a Result whose error is a sentence a listener can read ("the file is missing").
 * - It resolves one song; the caller decides what to do when it fails (the queue moves on).
 * - A result with `previewSeconds` is a preview clip: the stream itself is only that long, and the
 *   bot reports it as the track's effective duration.
 */
import type { KnownLoudness } from '../domain/loudness';
import type { Platform } from '../domain/platforms';
import type { Quality } from '../domain/qualities';
import type { Result } from '../result';

/**
 * Request headers some platforms require on their audio URLs (Referer, User-Agent, a media server's
 * token). The daemon sends them itself, never on a command line, so a secret belongs here, not in the
 * URL. There is no cookie: a platform's login cookie goes only to its API hosts, never to an audio CDN
 * (the audio URLs the APIs hand out are signed and play without one). `authorization` is only for a
 * server that is itself the API host, such as the Jellyfin server the admin configured.
 */
export interface StreamHeaders {
  referer?: string;
  userAgent?: string;
  authorization?: string;
}

/**
 * An address a user gave (platform `stream`) rather than a platform's: every request for it, HLS
 * segments included, goes through the request-forgery guard (shared/net/guarded-fetch.ts).
 */
export interface UserAddress {
  /** The admin setting `streamAllowPrivateHosts` when the song was resolved. */
  allowPrivateHosts: boolean;
  /** A live stream: it cannot seek, and a dropped connection is opened again (with backoff). */
  live: boolean;
  /** An HLS playlist: its segment addresses are served to ffmpeg through the relay too. */
  hls: boolean;
}

/** Where the audio is read from: shaped like the daemon's DecoderInput, so it passes straight through. */
export type StreamInput =
  /**
   * `servedLocally`: a loopback URL this process serves itself (Spotify's PCM relay), with no secret in it.
   * `hls`: the platform's address is an HLS playlist (a YouTube live); the relay writes it anew.
   */
  | {
      kind: 'url';
      url: string;
      headers?: StreamHeaders;
      servedLocally?: boolean;
      hls?: boolean;
      userAddress?: UserAddress;
    }
  | { kind: 'file'; path: string };

export interface ResolvedStream {
  input: StreamInput;
  /** The platform says the stream is live (a YouTube live): it has no position to seek to. */
  live?: boolean;
  /** Set when only a preview clip is playable (VIP or copyright-restricted): its length in seconds. */
  previewSeconds?: number;
  /** The track's loudness where the platform or the file says it (else the bot measures it as it plays). */
  loudness?: KnownLoudness;
}

/** What a source needs to know about a song to find its audio. */
export interface StreamRequest {
  id: string;
  platform: Platform;
  /** The platform marked the song as VIP or restricted; a source may then resolve a preview. */
  vip?: boolean;
  /** The quality configured for the platform; a source serves the nearest it can. */
  quality?: Quality;
}

/** What a bot tells a source about playing one of its songs (a media server shows it as "now playing"). */
export type PlaybackReport =
  | { kind: 'started'; songId: string }
  | { kind: 'progress'; songId: string; positionSeconds: number; paused: boolean }
  | { kind: 'stopped'; songId: string; positionSeconds: number };

export interface MusicSource {
  readonly platform: Platform;
  resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>>;
  /** Optional: told when its songs start, progress (about every 10 s) and stop. Never throws. */
  reportPlayback?(report: PlaybackReport): Promise<void>;
}
