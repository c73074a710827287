/**
 * A plain audio file's own title, artist and length (platform `stream`, an address that is neither a
 * live stream nor HLS). ffprobe reads them, as it reads an upload's (audio-probe.ts), but never from
 * the address itself: it is given a loopback relay whose every request, ranges included (ffprobe seeks
 * to an index or a tag at the end), goes out through the request-forgery guard. So a redirect to a
 * private host is refused as for any stream, and ffprobe's command line names only the relay, never the
 * user's address (which may carry a token in its query).
 *
 * Bounded: RELAY_MAX_BYTES in all, TAGS_TIMEOUT_MS for the whole read. Any failure answers `undefined`,
 * and the song keeps the name from its address and length 0.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { guardedFetch } from '../../net/guarded-fetch';
import { listenOnLoopback } from '../../net/loopback-server';
import { probeAudio } from '../local/audio-probe';
import { STREAM_USER_AGENT } from './stream-probe';

export interface FileTags {
  title: string | undefined;
  artist: string | undefined;
  /** 0 when ffprobe could not tell. */
  durationSeconds: number;
}

/** The most the relay passes on, over all of ffprobe's requests: tags and indexes are far smaller. */
export const RELAY_MAX_BYTES = 8 * 1024 * 1024;
export const TAGS_TIMEOUT_MS = 10_000;
/** Headers of the file's answer that ffprobe needs to seek in it; nothing else is passed on. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'];
/** ffprobe may only speak HTTP to the relay: no file, no other protocol a crafted file could name. */
const RELAY_INPUT_OPTIONS = ['-protocol_whitelist', 'http,tcp'];

export interface FileTagsOptions {
  allowPrivateHosts: boolean;
  ffprobe: string;
  timeoutMs?: number;
}

export async function readFileTags(url: string, options: FileTagsOptions): Promise<FileTags | undefined> {
  const timeoutMs = options.timeoutMs ?? TAGS_TIMEOUT_MS;
  const upstream = AbortSignal.timeout(timeoutMs);
  // A path nobody can guess: no other local process can use the relay to reach the address.
  const path = `/${randomUUID()}`;
  let budget = RELAY_MAX_BYTES;
  const relay = await listenOnLoopback((request, response) => {
    if (request.url !== path || request.method !== 'GET') {
      response.writeHead(404).end();
      return;
    }
    // A socket gone mid-write must not become an unhandled rejection.
    relayOnce(url, request, response, {
      allowPrivateHosts: options.allowPrivateHosts,
      signal: upstream,
      take: (bytes) => {
        budget -= bytes;
        return budget >= 0;
      },
    }).catch(() => response.destroy());
  });
  try {
    const probed = await probeAudio(options.ffprobe, `http://127.0.0.1:${relay.port}${path}`, {
      inputOptions: RELAY_INPUT_OPTIONS,
      timeoutMs,
    });
    if (!probed.ok) return undefined;
    const { title, artist, durationSeconds } = probed.value;
    return { title, artist, durationSeconds };
  } finally {
    relay.server.closeAllConnections();
    relay.server.close();
  }
}

interface RelayLimits {
  allowPrivateHosts: boolean;
  signal: AbortSignal;
  /** Counts bytes against the budget; false once it is spent. */
  take: (bytes: number) => boolean;
}

/** One of ffprobe's requests, fetched through the guard with its range and passed back as it comes. */
async function relayOnce(
  url: string,
  request: IncomingMessage,
  response: ServerResponse,
  limits: RelayLimits,
): Promise<void> {
  const range = request.headers.range;
  const headers: Record<string, string> = { 'user-agent': STREAM_USER_AGENT, 'accept-encoding': 'identity' };
  if (range) headers.range = range.replace(/[\r\n]+/g, ' ');
  const closed = new AbortController();
  response.once('close', () => closed.abort());
  const answer = await guardedFetch(url, {
    allowPrivateHosts: limits.allowPrivateHosts,
    headers,
    signal: AbortSignal.any([limits.signal, closed.signal]),
  });
  if (!answer.ok || !answer.value.response.ok || !answer.value.response.body) {
    if (answer.ok) await answer.value.response.body?.cancel();
    if (!response.headersSent) response.writeHead(502);
    response.end();
    return;
  }
  const { response: file } = answer.value;
  const passed: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = file.headers.get(name);
    if (value !== null) passed[name] = value;
  }
  response.writeHead(file.status, passed);
  try {
    for await (const chunk of file.body as unknown as AsyncIterable<Uint8Array>) {
      if (closed.signal.aborted || !limits.take(chunk.byteLength)) break;
      response.write(chunk);
    }
  } catch {
    // ffprobe went on to another range, or time ran out: this answer ends here.
  } finally {
    await file.body?.cancel().catch(() => undefined);
    response.end();
  }
}
