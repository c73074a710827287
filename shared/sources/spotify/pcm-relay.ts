/**
 * A loopback HTTP server that hands librespot's raw PCM to the daemon's decoder as a WAV stream. The
 * decoder takes a URL or a file (StreamInput); raw PCM says nothing of its own format, so the relay
 * puts a WAV header in front of it (s16le, 44.1 kHz, stereo, the track's length), which ffmpeg reads
 * like any other stream. Each request starts its own librespot run: a seek is a new request whose
 * ffmpeg reads forward to the position, so every play and every seek gets a fresh process, and a
 * request that goes away (skip, stop, seek) stops its process.
 *
 * A track's stream ends at its length (librespot idles after a track instead of exiting), when
 * librespot stops, or when it has written nothing for a while. The stream is not seekable (no
 * `Accept-Ranges`, sent chunked): a request for a later byte range is refused with 416, so a dropped
 * connection is not silently restarted from the beginning.
 *
 * WAV header layout (RIFF/WAVE, `fmt ` PCM chunk of 16 bytes, `data` chunk) from Microsoft's
 * "Multimedia Programming Interface and Data Specifications 1.0".
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logger } from '../../logger';
import { type LoopbackServer, listenOnLoopback } from '../../net/loopback-server';
import type { Result } from '../../result';
import { LIBRESPOT_BYTES_PER_SECOND, LIBRESPOT_PCM } from './librespot';
import type { LibrespotRun } from './librespot-run';

export interface RelayTrack {
  trackId: string;
  durationMs: number;
}

export type StartRun = (track: RelayTrack) => Promise<Result<LibrespotRun>>;

export interface RelayOptions {
  /** How long librespot may write nothing, once it has started, before the track is taken as over. */
  idleMs?: number;
  /** How long the first PCM may take after Spotify was told to play (fetching the audio). */
  firstDataMs?: number;
}

/** Tracks kept playable by URL: a bot asks again (a seek) long before this many newer tracks start. */
const REMEMBERED_TRACKS = 64;
const DEFAULT_IDLE_MS = 5_000;
const DEFAULT_FIRST_DATA_MS = 20_000;
const log = logger('sources.spotify.relay');

export class PcmRelay {
  private readonly tracks = new Map<string, RelayTrack>();
  private server: Promise<LoopbackServer> | undefined;
  private readonly idleMs: number;
  private readonly firstDataMs: number;

  constructor(
    private readonly startRun: StartRun,
    options: RelayOptions = {},
  ) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.firstDataMs = options.firstDataMs ?? DEFAULT_FIRST_DATA_MS;
  }

  /** A loopback URL that plays `track` (a fresh librespot run per request). */
  async urlFor(track: RelayTrack): Promise<string> {
    const { port } = await this.listening();
    const key = randomBytes(18).toString('base64url');
    this.tracks.set(key, track);
    for (const oldest of this.tracks.keys()) {
      if (this.tracks.size <= REMEMBERED_TRACKS) break;
      this.tracks.delete(oldest);
    }
    return `http://127.0.0.1:${port}/librespot/${key}.wav`;
  }

  async close(): Promise<void> {
    const running = await this.server;
    this.server = undefined;
    if (running) await new Promise((resolve) => running.server.close(resolve));
  }

  private listening(): Promise<LoopbackServer> {
    this.server ??= listenOnLoopback((request, response) => void this.serve(request, response));
    return this.server;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const key = /^\/librespot\/([\w-]+)\.wav$/.exec(request.url ?? '')?.[1];
    const track = key === undefined ? undefined : this.tracks.get(key);
    if (request.method !== 'GET' || !track) return refuse(response, 404, 'no such Spotify stream');
    const range = request.headers.range;
    if (range !== undefined && !/^bytes=0-$/.test(range.trim()))
      return refuse(response, 416, 'this Spotify stream cannot be resumed');
    const run = await this.startRun(track);
    if (!run.ok) return refuse(response, 502, run.error);
    if (response.destroyed || request.destroyed) return run.value.stop();
    this.relay(track, run.value, response);
  }

  private relay(track: RelayTrack, run: LibrespotRun, response: ServerResponse): void {
    const frameBytes = LIBRESPOT_PCM.channels * LIBRESPOT_PCM.bytesPerSample;
    const totalBytes = Math.round((track.durationMs / 1000) * LIBRESPOT_PCM.sampleRateHz) * frameBytes;
    let sent = 0;
    let idleTimer: NodeJS.Timeout | undefined;
    const over = (why: string) => () => {
      log.debug({ trackId: track.trackId, sent, totalBytes }, why);
      finish();
    };
    const finish = () => {
      clearTimeout(idleTimer);
      run.pcm.off('data', onData);
      run.stop();
      if (!response.writableEnded) response.end();
    };
    const onData = (chunk: Buffer) => {
      clearTimeout(idleTimer);
      const part = chunk.subarray(0, totalBytes - sent);
      sent += part.length;
      const flowing = response.write(part);
      if (sent >= totalBytes) return finish();
      idleTimer = setTimeout(over('librespot went quiet: the track is over'), this.idleMs);
      if (!flowing) {
        run.pcm.pause();
        response.once('drain', () => run.pcm.resume());
      }
    };
    response.writeHead(200, { 'content-type': 'audio/wav', 'cache-control': 'no-store' });
    response.write(wavHeader(totalBytes));
    response.once('close', finish);
    run.pcm.once('end', finish);
    run.pcm.on('data', onData);
    idleTimer = setTimeout(over('librespot wrote nothing: the track is given up'), this.firstDataMs);
  }
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(message);
}

/** The 44-byte header of a PCM WAV file whose data is `dataBytes` long. */
export function wavHeader(dataBytes: number): Buffer {
  const { sampleRateHz, channels, bytesPerSample } = LIBRESPOT_PCM;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRateHz, 24);
  header.writeUInt32LE(LIBRESPOT_BYTES_PER_SECOND, 28);
  header.writeUInt16LE(channels * bytesPerSample, 32);
  header.writeUInt16LE(bytesPerSample * 8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
