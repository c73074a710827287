/**
 * How the stream relay serves a user's address (platform `stream`) to ffmpeg. Unlike a platform's
 * stream, every request goes through the request-forgery guard (shared/net/guarded-fetch.ts), answers
 * that are not audio are refused (502, so ffmpeg fails and the queue moves on), and:
 *
 * - ICY metadata is asked for and cut out of the audio, each new StreamTitle reported (icy-metadata.ts);
 * - a live stream whose connection drops is opened again after a backoff, up to RECONNECT_TRIES times
 *   in a row, into the same answer: ffmpeg never notices the gap. After the last try the answer ends,
 *   so the track ends and the next song plays;
 * - an HLS playlist is handed over written anew by the relay, every address in it one of the relay's
 *   (hls-playlist.ts), so the segments come through here as well;
 * - whatever its declared type, an answer whose first bytes are a manifest (HLS, DASH) is never passed
 *   on as it is: the decoder's demuxers would open the addresses it names themselves, past the guard.
 *   Where the relay expects a playlist (an HLS song, a variant) it writes it anew; anywhere else (an
 *   audio file or station, an HLS segment) it refuses it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from '../../../shared/logger';
import { guardedFetch } from '../../../shared/net/guarded-fetch';
import type { UserAddress } from '../../../shared/sources/music-source';
import type { HttpHeaders } from '../decode/decoder-input';
import { IcyDemuxer } from '../decode/icy-metadata';
import { type HlsAddressKind, type LocalAddress, sniffManifest } from './hls-playlist';
import { peek, type Stall, servePlaylist } from './relay-answer';

/** Connections opened again, in a row, before a dropped live stream is given up. */
export const RECONNECT_TRIES = 5;
/** The wait before the first reconnect; it doubles with each try (0.5 + 1 + 2 + 4 + 8 s at most). */
export const RECONNECT_BASE_MS = 500;
/** Types that are never audio; anything else is left to ffmpeg to judge. */
const NOT_AUDIO = /^(text\/|application\/(json|xml|xhtml|javascript))/;

const log = logger('audio.relay');

export interface UserAddressRequest {
  /** The outside address: the song's, or one the relay's HLS playlist named. */
  target: string;
  /** `song`: the song's own address; else what the relay's HLS playlist named it as. */
  kind: 'song' | HlsAddressKind;
  address: UserAddress;
  headers: HttpHeaders | undefined;
  request: IncomingMessage;
  response: ServerResponse;
  upstream: AbortController;
  stall: Stall;
  onTitle: ((title: string) => void) | undefined;
  /** The loopback path for an address an HLS playlist names. */
  localPath: LocalAddress;
  reconnectBaseMs: number;
  /** Copies a body to ffmpeg; `transform` cuts what ffmpeg must not see. True when bytes arrived. */
  copy: (body: ReadableStream<Uint8Array>, transform?: (chunk: Uint8Array) => Uint8Array) => Promise<boolean>;
}

export async function serveUserAddress(req: UserAddressRequest): Promise<void> {
  const { response, upstream, address } = req;
  const reconnects = address.live && !address.hls;
  // The song's address of an HLS song, or a variant it names: a playlist the relay writes anew.
  const playlist = address.hls && req.kind !== 'media';
  let answered = false;
  for (let attempt = 0; ; attempt++) {
    req.stall.arm();
    const answer = await guardedFetch(req.target, {
      allowPrivateHosts: address.allowPrivateHosts,
      headers: upstreamHeaders(req, reconnects),
      signal: upstream.signal,
    });
    req.stall.disarm();
    if (upstream.signal.aborted) return;
    const refusal = !answer.ok
      ? answer.error.message
      : !answer.value.response.ok
        ? `answered ${answer.value.response.status}`
        : NOT_AUDIO.test(answer.value.response.headers.get('content-type') ?? '') && !address.hls
          ? 'answered with something that is not audio'
          : undefined;
    if (answer.ok && refusal === undefined) {
      const { response: upstreamAnswer, url } = answer.value;
      try {
        const peeked = await peek(upstreamAnswer.body, req.stall);
        if (playlist) {
          await servePlaylist(response, peeked.body, url, req.localPath);
          return;
        }
        const manifest = sniffManifest(peeked.head);
        if (manifest) {
          log.info({ manifest }, 'a user address answered with a manifest where audio was expected: refused');
          break;
        }
        if (!answered) response.writeHead(upstreamAnswer.status, forwarded(upstreamAnswer, reconnects));
        answered = true;
        const metaint = Number(upstreamAnswer.headers.get('icy-metaint'));
        const icy = metaint > 0 ? new IcyDemuxer(metaint, (title) => req.onTitle?.(title)) : undefined;
        if (await req.copy(peeked.body, icy && ((c) => icy.push(c)))) attempt = 0;
      } catch (error) {
        if (upstream.signal.aborted) return;
        log.debug({ err: error }, 'a user address dropped');
      }
    } else if (!answered) {
      log.info({ reason: refusal }, 'a user address is refused');
      response.writeHead(502).end();
      return;
    }
    if (!reconnects || attempt >= RECONNECT_TRIES || upstream.signal.aborted) break;
    log.debug({ attempt: attempt + 1 }, 'a live stream dropped: opening it again');
    try {
      await sleep(req.reconnectBaseMs * 2 ** attempt, undefined, { signal: upstream.signal });
    } catch {
      return;
    }
  }
  // Refused, or failed before a byte was passed on: ffmpeg gets an error, not an empty answer.
  if (!answered) response.writeHead(502);
  response.end();
}

function upstreamHeaders(req: UserAddressRequest, live: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'icy-metadata': '1', 'accept-encoding': 'identity' };
  if (req.headers?.userAgent) headers['user-agent'] = req.headers.userAgent;
  // A live stream has no ranges; a file's are ffmpeg's own (to seek, to reach an index at the end).
  const range = req.request.headers.range;
  if (!live && range) headers.range = range.replace(/[\r\n]+/g, ' ');
  return headers;
}

/** What ffmpeg is told: a live stream's length and ranges mean nothing across reconnects. */
function forwarded(answer: Response, live: boolean): Record<string, string> {
  const names = live
    ? ['content-type']
    : ['content-type', 'content-length', 'content-range', 'accept-ranges'];
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = answer.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}
