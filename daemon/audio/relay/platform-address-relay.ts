/**
 * How the stream relay serves a platform's stream (an address a music source resolved, not a user's)
 * to ffmpeg: fetched with the source's headers, following redirects, the answer's status and the
 * headers ffmpeg needs to read, seek and resume copied back, ffmpeg's Range requests forwarded.
 *
 * A platform stream that is an HLS playlist (`hls`: a YouTube live) is served as a user's HLS song
 * is: the playlist and any variant it names written anew by the relay, every address in them one of
 * the relay's (hls-playlist.ts), so segments and keys come through here too, with the platform's
 * headers. ffmpeg's HLS demuxer is allowed for that input only, so what the relay passes on as media
 * there must not be a manifest: such an answer is refused. Any other platform stream is read with a
 * format whitelist holding no playlist demuxer (ffmpeg-args.ts), which refuses a manifest itself.
 *
 * The token (`authorization`, a media server's) goes only to the origin of the stream's own address:
 * fetch drops it on a redirect to another origin, and an address a playlist names on another origin is
 * fetched without it.
 *
 * The stream's own address, refused as an expired one is, is renewed once and the same request sent
 * to the fresh one (address-renewal.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logger } from '../../../shared/logger';
import type { PlatformAddress, RenewableAddress } from './address-renewal';
import { type HlsAddressKind, type LocalAddress, sniffManifest } from './hls-playlist';
import { peek, type Stall, servePlaylist } from './relay-answer';

/** The answer headers ffmpeg needs to read, seek and resume; nothing else (no Set-Cookie) goes back. */
const FORWARDED_ANSWER_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'];

const log = logger('audio.relay');

export interface PlatformAddressRequest {
  /** An outside address the relay's HLS playlist named; undefined: the stream's own address. */
  target: string | undefined;
  /** `song`: the stream's own address; else what the relay's HLS playlist named it as. */
  kind: 'song' | HlsAddressKind;
  /** The stream's own address and headers (its origin alone gets the token), renewed when expired. */
  address: RenewableAddress;
  /** Told when the stream's own address is refused for good. */
  onRefused: ((status: number) => void) | undefined;
  /** The stream is an HLS playlist. */
  hls: boolean;
  request: IncomingMessage;
  response: ServerResponse;
  upstream: AbortController;
  stall: Stall;
  /** The loopback path for an address an HLS playlist names. */
  localPath: LocalAddress;
  /** Copies a body to ffmpeg. */
  copy: (body: ReadableStream<Uint8Array>) => Promise<boolean>;
}

export async function servePlatformAddress(req: PlatformAddressRequest): Promise<void> {
  const { response, stall } = req;
  // The stream's own address of an HLS stream, or a variant it names: a playlist the relay writes anew.
  const playlist = req.hls && req.kind !== 'media';
  let own = req.target === undefined ? req.address.current : undefined;
  let answer = await fetchUpstream(req, req.target ?? req.address.current.url, playlist);
  if (!answer.ok) {
    // The platform's refusal (403, 404, …): its body (a page, never audio) is not read.
    await answer.body?.cancel();
    stall.arm();
    const fresh = own && (await req.address.renew(own, answer.status));
    stall.disarm();
    if (fresh) {
      own = fresh;
      answer = await fetchUpstream(req, fresh.url, playlist);
    }
  }
  if (!answer.ok) {
    // The refusal stands, by its status alone: ffmpeg fails and the decoder tells its kind.
    await answer.body?.cancel();
    if (own) req.onRefused?.(answer.status);
    response.writeHead(answer.status).end();
    return;
  }
  if (own) req.address.served(own);
  if (playlist) {
    await servePlaylist(response, answer.body, answer.url, req.localPath);
    return;
  }
  let body: ReadableStream<Uint8Array> | null = answer.body;
  if (req.hls) {
    const peeked = await peek(body, stall);
    const manifest = sniffManifest(peeked.head);
    if (manifest) {
      log.info({ manifest }, 'an HLS segment answered with a manifest: refused');
      response.writeHead(502).end();
      return;
    }
    body = peeked.body;
  }
  response.writeHead(answer.status, answerHeaders(answer));
  if (body) await req.copy(body);
  response.end();
}

async function fetchUpstream(
  req: PlatformAddressRequest,
  target: string,
  playlist: boolean,
): Promise<Response> {
  req.stall.arm();
  try {
    return await fetch(target, {
      headers: upstreamHeaders(req, target, playlist),
      redirect: 'follow',
      signal: req.upstream.signal,
    });
  } finally {
    req.stall.disarm();
  }
}

function upstreamHeaders(req: PlatformAddressRequest, target: string, playlist: boolean): Headers {
  const own: PlatformAddress = req.address.current;
  const out = new Headers({ 'accept-encoding': 'identity' });
  const set = (name: string, value: string | undefined) => {
    // A CR or LF in a value would smuggle extra header lines into the request (fetch refuses them).
    if (value) out.set(name, value.replace(/[\r\n]+/g, ' '));
  };
  // A playlist is answered whole, written anew: a range of the original means nothing to ffmpeg.
  if (!playlist) set('range', req.request.headers.range);
  set('user-agent', own.headers?.userAgent ?? req.request.headers['user-agent']);
  set('referer', own.headers?.referer);
  if (sameOrigin(target, own.url)) set('authorization', own.headers?.authorization);
  return out;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function answerHeaders(answer: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of FORWARDED_ANSWER_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}
