/**
 * A loopback HTTP relay between ffmpeg and a platform's audio server, so a stream's token never
 * reaches ffmpeg's command line (any local user reads `/proc/<pid>/cmdline`). ffmpeg gets
 * `http://127.0.0.1:<port>/stream/<random key>`; the relay fetches the real URL with the source's
 * headers, following redirects, and copies the answer back.
 *
 * Why a relay rather than piping a fetch into ffmpeg's stdin: a pipe cannot seek, and an MP4/M4A whose
 * `moov` index sits after the audio (common for M4A files) does not play from a pipe at all. Over
 * HTTP, ffmpeg sends its own `Range` requests (to reach the index, to seek with `-ss`, to resume
 * after a dropped connection); the relay forwards each one upstream, so every format plays and seeks
 * as it did when ffmpeg fetched the URL itself.
 *
 * How each request is served is up to the stream's kind: a platform's (platform-address-relay.ts) or
 * a user's address (user-address-relay.ts). Either may be an HLS playlist, handed over written anew
 * with loopback addresses of this relay under the stream's key (`/stream/<key>/<index>/<name>`).
 *
 * A platform's signed address that expired is renewed through the stream's owner (`renew`, see
 * address-renewal.ts), so a resume, a seek or a reconnect after it goes on at the same position.
 *
 * Stalls: while ffmpeg waits for bytes (not while it is full and reading nothing), an upstream that
 * sends nothing for `stallMs` (no answer, or no next chunk) is given up and the stream's owner told,
 * so the track ends with that reason instead of hanging. One relay serves every decoder of its thread
 * (each of the worker pool's threads); its server never keeps the
 * process alive.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logger } from '../../../shared/logger';
import { type LoopbackServer, listenOnLoopback } from '../../../shared/net/loopback-server';
import type { UserAddress } from '../../../shared/sources/music-source';
import type { HttpHeaders } from '../decode/decoder-input';
import { type AddressRenewer, RenewableAddress } from './address-renewal';
import type { HlsAddressKind } from './hls-playlist';
import { servePlatformAddress } from './platform-address-relay';
import { RECONNECT_BASE_MS, serveUserAddress } from './user-address-relay';

export interface RelaySource {
  url: string;
  headers?: HttpHeaders;
  /** A platform's stream that is an HLS playlist (platform-address-relay.ts). */
  hls?: boolean;
  /** A user's address (platform `stream`): guarded, ICY-stripped, reconnected (user-address-relay.ts). */
  userAddress?: UserAddress;
}

export interface RelayWatch {
  /** How long upstream may send nothing while ffmpeg waits for it. */
  stallMs: number;
  /** Called once when upstream stalled; the stream is closed by then. */
  onStall: () => void;
  /** A user's address: called with each new ICY StreamTitle. */
  onTitle?: (title: string) => void;
  /** A platform's stream: resolves it again when its address is refused as an expired one is. */
  renew?: AddressRenewer;
  /**
   * A platform's stream: its own address was refused with `status` for good (after any renewal).
   * ffmpeg takes a refused reconnect for the stream's end, so only its owner can tell it was not.
   */
  onRefused?: (status: number) => void;
}

/** One stream handed out by the relay: the loopback URL for ffmpeg, and the way to end it. */
export interface RelayedStream {
  readonly url: Promise<string>;
  /** Ends the stream's requests in flight and forgets its key. Safe to call again. */
  close(): void;
}

interface OpenStream {
  source: RelaySource;
  /** A platform's stream: its own address as it is now (renewed when it expired). */
  address: RenewableAddress;
  watch: RelayWatch;
  /** Upstream requests in flight (the first, then ffmpeg's Range requests). */
  requests: Set<AbortController>;
  /** The outside addresses an HLS playlist named, and as what, by their loopback index (the newest kept). */
  hlsAddresses: Map<number, HlsAddress>;
  /** The loopback index of each, by `hlsKey`. */
  hlsIndexes: Map<string, number>;
  nextHlsIndex: number;
}

interface HlsAddress {
  url: string;
  kind: HlsAddressKind;
}

/** HLS addresses kept per stream: a live playlist names a few new segments every few seconds. */
const MAX_HLS_ADDRESSES = 1000;

const log = logger('audio.relay');

export class StreamRelay {
  private readonly streams = new Map<string, OpenStream>();
  private server: Promise<LoopbackServer> | undefined;

  /** `reconnectBaseMs`: the first wait before a dropped live stream is opened again (tests shorten it). */
  constructor(private readonly reconnectBaseMs = RECONNECT_BASE_MS) {}

  open(source: RelaySource, watch: RelayWatch): RelayedStream {
    const key = randomBytes(18).toString('base64url');
    const stream: OpenStream = {
      source,
      address: new RenewableAddress({ url: source.url, headers: source.headers }, watch.renew),
      watch,
      requests: new Set(),
      hlsAddresses: new Map(),
      hlsIndexes: new Map(),
      nextHlsIndex: 0,
    };
    this.streams.set(key, stream);
    return {
      url: this.listening().then(({ port }) => `http://127.0.0.1:${port}/stream/${key}`),
      close: () => {
        if (this.streams.get(key) !== stream) return;
        this.streams.delete(key);
        for (const request of stream.requests) request.abort();
      },
    };
  }

  /** Streams open now (tests: every track's stream is closed with it). */
  get openStreams(): number {
    return this.streams.size;
  }

  private listening(): Promise<LoopbackServer> {
    this.server ??= listenOnLoopback((request, response) => void this.serve(request, response));
    return this.server;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const [, key, hlsIndex] = /^\/stream\/([\w-]+)(?:\/(\d+)\/[^/?]*)?$/.exec(request.url ?? '') ?? [];
    const stream = key === undefined ? undefined : this.streams.get(key);
    const hlsTarget = hlsIndex === undefined ? undefined : stream?.hlsAddresses.get(Number(hlsIndex));
    if (request.method !== 'GET' || !stream || (hlsIndex !== undefined && !hlsTarget)) {
      response.writeHead(404).end();
      return;
    }
    const upstream = new AbortController();
    stream.requests.add(upstream);
    const stall = new StallTimer(stream.watch.stallMs, () => {
      log.debug({ stallMs: stream.watch.stallMs }, 'upstream sent nothing: the stream is given up');
      upstream.abort();
      response.destroy();
      stream.watch.onStall();
    });
    // ffmpeg went away (killed, or done with this range): stop fetching for it.
    response.once('close', () => upstream.abort());
    const { source } = stream;
    const common = {
      kind: hlsTarget?.kind ?? 'song',
      request,
      response,
      upstream,
      stall,
      localPath: (url: string, name: string, kind: HlsAddressKind) =>
        `/stream/${key}/${hlsIndexOf(stream, { url, kind })}/${encodeURIComponent(name)}`,
    } as const;
    try {
      if (source.userAddress)
        await serveUserAddress({
          ...common,
          target: hlsTarget?.url ?? source.url,
          headers: source.headers,
          address: source.userAddress,
          onTitle: stream.watch.onTitle,
          reconnectBaseMs: this.reconnectBaseMs,
          copy: (body, transform) => copy(body, response, stall, upstream.signal, transform),
        });
      else
        await servePlatformAddress({
          ...common,
          target: hlsTarget?.url,
          address: stream.address,
          onRefused: stream.watch.onRefused,
          hls: source.hls === true,
          copy: (body) => copy(body, response, stall, upstream.signal),
        });
    } catch (error) {
      // Aborted (ffmpeg left, the track ended, or a stall) or a network failure: ffmpeg sees the
      // connection drop and reconnects or fails with its own message.
      if (!upstream.signal.aborted) log.debug({ err: error }, 'upstream failed');
      response.destroy();
    } finally {
      stall.disarm();
      stream.requests.delete(upstream);
    }
  }
}

/**
 * Copies the body, waiting while ffmpeg reads nothing; only waits for upstream count towards a stall.
 * `transform` cuts what ffmpeg must not see (ICY metadata). True when any bytes arrived.
 */
async function copy(
  body: ReadableStream<Uint8Array>,
  response: ServerResponse,
  stall: StallTimer,
  signal: AbortSignal,
  transform?: (chunk: Uint8Array) => Uint8Array,
): Promise<boolean> {
  const reader = body.getReader();
  let received = false;
  for (;;) {
    stall.arm();
    const chunk = await reader.read();
    stall.disarm();
    if (chunk.done) return received;
    received = true;
    const bytes = transform ? transform(chunk.value) : chunk.value;
    // The signal ends the wait when ffmpeg goes away while it is full (a kill never drains).
    if (bytes.byteLength > 0 && !response.write(bytes)) await once(response, 'drain', { signal });
  }
}

/** The loopback index of an outside address an HLS playlist names; the oldest are forgotten. */
function hlsIndexOf(stream: OpenStream, address: HlsAddress): number {
  const known = stream.hlsIndexes.get(hlsKey(address));
  if (known !== undefined) return known;
  const index = stream.nextHlsIndex++;
  stream.hlsIndexes.set(hlsKey(address), index);
  stream.hlsAddresses.set(index, address);
  if (stream.hlsAddresses.size > MAX_HLS_ADDRESSES) {
    const [oldest, old] = stream.hlsAddresses.entries().next().value as [number, HlsAddress];
    stream.hlsAddresses.delete(oldest);
    stream.hlsIndexes.delete(hlsKey(old));
  }
  return index;
}

/** One address may be named as a playlist and as media: each is served as what it was named. */
const hlsKey = ({ url, kind }: HlsAddress) => `${kind} ${url}`;

class StallTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onStall: () => void,
  ) {}

  arm(): void {
    this.disarm();
    this.timer = setTimeout(this.onStall, this.ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

let threadRelay: StreamRelay | undefined;

/** This thread's relay, made on first use. */
export function streamRelay(): StreamRelay {
  threadRelay ??= new StreamRelay();
  return threadRelay;
}
