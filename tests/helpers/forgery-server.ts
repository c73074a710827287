/**
 * A "radio" that changes its answer between the probe and the play, and a trap: the stand-ins of the
 * request-forgery tests against the decoders (tests/stream/decoder-forgery.test.ts).
 *
 * The radio listens on PUBLIC_STAND_IN_ADDRESS (a test counts it as public). At each path it answers
 * its first request (the probe when the song is played) honestly, and every later one (the relay's)
 * with a manifest whose addresses point at the trap, a second listener on 127.0.0.1 (private, so the
 * guard refuses it). A decoder that opened such a manifest itself would fetch the trap past the guard.
 *
 * Paths are `/<run>/<kind>`, `<run>` any word, so each test run has fresh first requests:
 * - `switch.m3u8`: MP3 first, then an HLS playlist sent as `audio/mpegurl`;
 * - `switch-bytes.m3u8`: the same, the playlist sent as `application/octet-stream`;
 * - `dash`: MP3 first, then a DASH manifest sent as `application/dash+xml`;
 * - `master.m3u8`: an HLS master playlist naming `variant.m3u8`, a media playlist of the trap's
 *   segments sent as `application/octet-stream` (ffmpeg reads a variant whatever its type);
 * - `tricks.m3u8`: an HLS playlist first, then one whose trap addresses hide where a naive rewriter
 *   misses them (an unquoted key URI, a line ended by a lone CR);
 * - `honest.m3u8`: always an HLS playlist of its own segments (`seg<n>.ts`, relative), sent as
 *   `application/octet-stream`: what must still play.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderTone } from './audio-cdn';
import { PUBLIC_STAND_IN_ADDRESS } from './radio-server';

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

export interface ForgeryServers {
  /** The radio's base URL, `http://127.0.0.2:<port>/`. */
  radioUrl: string;
  radioRequests: RecordedRequest[];
  /** Every request that reached the trap: must stay empty. */
  trapRequests: RecordedRequest[];
  close(): Promise<void>;
}

/** A content type and a body. */
type Answer = [string, string | Buffer];

const playlist = (lines: string[]) =>
  `${['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', ...lines].join('\n')}\n`;

export async function startForgeryServers(): Promise<ForgeryServers> {
  const mp3 = renderTone(20, 'tone.mp3', ['-b:a', '128k']);
  const segments = [0, 1, 2].map(() => renderTone(2, 'segment.ts', ['-c:a', 'aac']));
  const radioRequests: RecordedRequest[] = [];
  const trapRequests: RecordedRequest[] = [];

  const trap = createServer((request, response) => {
    trapRequests.push({ path: request.url ?? '/', headers: request.headers });
    response.writeHead(200, { 'content-type': 'video/mp2t' });
    response.end(segments[0]);
  });
  const trapUrl = await listen(trap, '127.0.0.1');

  const honest = playlist([
    '#EXT-X-MEDIA-SEQUENCE:0',
    ...[0, 1, 2].flatMap((n) => ['#EXTINF:2.0,', `seg${n}.ts`]),
  ]);
  // Each names the trap under the path that served it, so a test can tell whose manifest was followed.
  const toTrap = (trapped: string) =>
    playlist([
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXTINF:2.0,',
      `${trapped}seg0.ts`,
      '#EXTINF:2.0,',
      `${trapped}seg1.ts`,
    ]);
  const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"\nvariant.m3u8\n';
  const tricks = (trapped: string) =>
    playlist([
      '#EXT-X-MEDIA-SEQUENCE:0',
      `#EXT-X-KEY:METHOD=AES-128,URI=${trapped}key`,
      `#EXTINF:2.0,\r${trapped}lone-cr.ts`,
      '#EXTINF:2.0,',
      'seg0.ts',
    ]);
  const dash = (trapped: string) =>
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"',
      ' type="static" mediaPresentationDuration="PT4S" minBufferTime="PT1S">',
      `<Period><AdaptationSet mimeType="audio/mp4"><Representation id="a" bandwidth="128000">`,
      `<BaseURL>${trapped}audio.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>`,
    ].join('\n');

  const audio: Answer = ['audio/mpeg', mp3];
  /** By kind: the answer to the first request or a later one, `trapped` the trap's address for it. */
  const answers: Record<string, (first: boolean, trapped: string) => Answer> = {
    'honest.m3u8': () => ['application/octet-stream', honest],
    'switch.m3u8': (first, trapped) => (first ? audio : ['audio/mpegurl', toTrap(trapped)]),
    'switch-bytes.m3u8': (first, trapped) => (first ? audio : ['application/octet-stream', toTrap(trapped)]),
    dash: (first, trapped) => (first ? audio : ['application/dash+xml', dash(trapped)]),
    'master.m3u8': () => ['application/vnd.apple.mpegurl', master],
    'variant.m3u8': (_, trapped) => ['application/octet-stream', toTrap(trapped)],
    'tricks.m3u8': (first, trapped) => ['application/vnd.apple.mpegurl', first ? honest : tricks(trapped)],
  };

  const radio = createServer((request, response) => {
    const path = request.url ?? '/';
    radioRequests.push({ path, headers: request.headers });
    const first = radioRequests.filter((r) => r.path === path).length === 1;
    const kind = /^\/\w+\/([\w.-]+)$/.exec(path)?.[1];
    const segment = /^seg(\d)\.ts$/.exec(kind ?? '');
    const answer: Answer | undefined = segment
      ? ['video/mp2t', segments[Number(segment[1])] ?? Buffer.alloc(0)]
      : kind === undefined
        ? undefined
        : answers[kind]?.(first, `${trapUrl}${path.slice(1)}/`);
    if (!answer) return response.writeHead(404).end();
    // With its length: a file, not a live stream (which the relay would reopen at each end).
    const body = Buffer.from(answer[1]);
    response.writeHead(200, { 'content-type': answer[0], 'content-length': body.length });
    response.end(body);
  });
  const radioUrl = await listen(radio, PUBLIC_STAND_IN_ADDRESS);

  return {
    radioUrl,
    radioRequests,
    trapRequests,
    close: async () => {
      for (const server of [radio, trap]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}/`;
}
