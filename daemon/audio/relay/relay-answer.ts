/**
 * What both of the stream relay's paths (a platform's stream, platform-address-relay.ts; a user's
 * address, user-address-relay.ts) do with an answer before the decoder sees it: a playlist the relay
 * expects is written anew (hls-playlist.ts), and the first bytes of anything else are looked at
 * (`peek`) so that a manifest is never passed on where audio is expected.
 */
import type { ServerResponse } from 'node:http';
import { logger } from '../../../shared/logger';
import { boundedText } from '../../../shared/sources/stream/stream-probe';
import { bytesToSniff, type LocalAddress, regenerateHlsPlaylist } from './hls-playlist';

/** The most of an HLS playlist read: real ones are a few kilobytes. */
const MAX_HLS_PLAYLIST_BYTES = 1024 * 1024;
/** The most held back to look for a manifest behind ID3 tags; past it the answer is audio. */
const MAX_SNIFF_BYTES = 1024 * 1024;

const log = logger('audio.relay');

/** What a stall timer does: counts upstream's silences only while the relay waits for it. */
export interface Stall {
  arm(): void;
  disarm(): void;
}

/**
 * Reads the first bytes of a body, enough to tell whether it is a manifest (`sniffManifest`), while
 * the stall timer counts; `body` gives them again, then the rest.
 */
export async function peek(
  source: ReadableStream<Uint8Array> | null,
  stall: Stall,
): Promise<{ head: Uint8Array; body: ReadableStream<Uint8Array> }> {
  const reader = (source ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })).getReader();
  let head: Uint8Array = new Uint8Array(0);
  let done = false;
  while (!done && head.length < Math.min(MAX_SNIFF_BYTES, bytesToSniff(head))) {
    stall.arm();
    const chunk = await reader.read();
    stall.disarm();
    if (chunk.done) done = true;
    else head = Buffer.concat([head, chunk.value]);
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length > 0) controller.enqueue(head);
      if (done) controller.close();
    },
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head, body };
}

/**
 * A playlist (a stream's own, or a variant it names), fetched from `url`, goes to the decoder written
 * anew by the relay with its addresses given by `localPath`, or not at all (502).
 */
export async function servePlaylist(
  response: ServerResponse,
  body: ReadableStream<Uint8Array> | null,
  url: string,
  localPath: LocalAddress,
): Promise<void> {
  const text = await boundedText(new Response(body), MAX_HLS_PLAYLIST_BYTES);
  const written = regenerateHlsPlaylist(text, url, localPath);
  if (written === undefined) {
    log.info('an HLS address answered with something that is not a playlist: refused');
    response.writeHead(502).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(written);
}
