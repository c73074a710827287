/**
 * A stand-in internet radio on 127.0.0.1, for platform `stream`:
 * - `/live` an Icecast-style live MP3 stream with ICY metadata every METAINT bytes; its StreamTitle is
 *   `setTitle`'s (changed mid-play by a test), its station name `Test FM`;
 * - `/drops` the same stream, cut after about a second of audio on the first connections (`dropsLeft`);
 * - `/hls/live.m3u8` an HLS media playlist of three MPEG-TS segments (`/hls/seg<n>.ts`), no end tag;
 * - `/station.pls` and `/station.m3u` playlists naming `/live`;
 * - `/page.html` a web page (not audio); `/hop/<n>` redirects n more times, then to `/live`.
 * Every request is recorded: its path, and its headers apart.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_ENABLED_PROVIDERS } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import type { Session } from '../../testkit/accounts';
import { renderTone } from './audio-cdn';

export const METAINT = 8000;
export const STATION_NAME = 'Test FM';
/** Bytes a second of the 128 kb/s tone: the live stream is paced at this rate. */
const BYTES_PER_SECOND = 16_000;

/** The Song platform `stream` answers for a live station of this server. */
export function stationSong(radio: RadioServer, path: string): Song {
  return {
    id: `${radio.baseUrl}${path}`,
    name: STATION_NAME,
    artist: '',
    album: '',
    duration: 0,
    coverUrl: '',
    platform: 'stream',
  };
}

export interface RadioServer {
  baseUrl: string;
  requests: string[];
  /** The headers of each request, by the same index as `requests`. */
  requestHeaders: IncomingHttpHeaders[];
  setTitle(title: string): void;
  /** How many more connections to `/drops` are cut short. */
  dropsLeft: number;
  close(): Promise<void>;
}

/** ICY metadata block: a length byte (in 16s), then the text padded with NULs. */
function metadataBlock(title: string): Buffer {
  const text = Buffer.from(`StreamTitle='${title}';`, 'utf8');
  const blocks = Math.ceil(text.length / 16);
  const out = Buffer.alloc(1 + blocks * 16);
  out[0] = blocks;
  text.copy(out, 1);
  return out;
}

export async function startRadioServer(): Promise<RadioServer> {
  const tone = renderTone(60, 'tone.mp3', ['-b:a', '128k']);
  const segments = [0, 1, 2].map(() => renderTone(2, 'segment.ts', ['-c:a', 'aac']));
  let title = 'First Song';
  const open = new Set<ServerResponse>();
  const radio: RadioServer = {
    baseUrl: '',
    requests: [],
    requestHeaders: [],
    setTitle: (next) => {
      title = next;
    },
    dropsLeft: 0,
    close: async () => {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  /** Sends the tone paced like a live stream, with metadata when asked; `limitBytes` cuts it short. */
  const live = (icy: boolean, response: ServerResponse, limitBytes = Number.POSITIVE_INFINITY) => {
    response.writeHead(200, {
      'content-type': 'audio/mpeg',
      'icy-name': STATION_NAME,
      ...(icy ? { 'icy-metaint': String(METAINT) } : {}),
    });
    open.add(response);
    let sent = 0;
    const tick = setInterval(
      () => {
        if (sent >= limitBytes) {
          clearInterval(tick);
          response.destroy();
          return;
        }
        const from = sent % tone.length;
        const audio = tone.subarray(from, Math.min(from + METAINT, tone.length));
        sent += audio.length;
        response.write(icy ? Buffer.concat([audio, metadataBlock(title)]) : audio);
      },
      (METAINT / BYTES_PER_SECOND) * 1000,
    );
    response.once('close', () => {
      clearInterval(tick);
      open.delete(response);
    });
  };

  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    radio.requests.push(path);
    radio.requestHeaders.push(request.headers);
    const icy = request.headers['icy-metadata'] === '1';
    const hop = /^\/hop\/(\d+)$/.exec(path);
    const segment = /^\/hls\/seg(\d)\.ts$/.exec(path);
    if (path === '/live') live(icy, response);
    else if (path === '/drops') {
      if (radio.dropsLeft > 0) {
        radio.dropsLeft--;
        live(icy, response, BYTES_PER_SECOND);
      } else live(icy, response);
    } else if (path === '/station.pls') {
      response.writeHead(200, { 'content-type': 'audio/x-scpls' });
      response.end(`[playlist]\nNumberOfEntries=1\nFile1=${radio.baseUrl}live\nTitle1=Test\nVersion=2\n`);
    } else if (path === '/station.m3u') {
      response.writeHead(200, { 'content-type': 'audio/x-mpegurl' });
      response.end('#EXTM3U\n#EXTINF:-1,Test FM\nlive\n');
    } else if (path === '/hls/live.m3u8') {
      response.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0'];
      for (const n of [0, 1, 2]) lines.push('#EXTINF:2.0,', `seg${n}.ts`);
      response.end(`${lines.join('\n')}\n`);
    } else if (segment) {
      response.writeHead(200, { 'content-type': 'video/mp2t' });
      response.end(segments[Number(segment[1])]);
    } else if (path === '/page.html') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>not audio</title>');
    } else if (hop) {
      const left = Number(hop[1]);
      response.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/live' }).end();
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  radio.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return radio;
}

/**
 * The address the request-forgery tests let stand for a public host (a test mocks the guard's address
 * check to count it as public): 127.0.0.2, which Linux answers on loopback like 127.0.0.1.
 */
export const PUBLIC_STAND_IN_ADDRESS = '127.0.0.2';

/**
 * Turns the `stream` source on, as an admin does: it is opt-in, like library_a (SPEC's default
 * sources do not include it). `allowPrivateHosts` also lets it reach loopback hosts.
 */
export async function enableStreamSource(admin: Session, { allowPrivateHosts = false } = {}): Promise<void> {
  const answer = await admin.api.POST('/api/bot/settings', {
    body: {
      enabledProviders: [...DEFAULT_ENABLED_PROVIDERS, 'stream'],
      ...(allowPrivateHosts && { streamAllowPrivateHosts: true }),
    },
  });
  if (answer.response.status !== 200) throw new Error(`could not enable stream: ${answer.response.status}`);
}

type PublicAddressModule = typeof import('../../shared/net/public-address');

/**
 * The request-forgery guard's address module with PUBLIC_STAND_IN_ADDRESS counted as public and every
 * other address judged as always: only loopback servers can run here, so one stands in for a public
 * host. For a test file's `vi.mock('../../shared/net/public-address', …)` factory.
 */
export function withPublicStandIn(real: PublicAddressModule): PublicAddressModule {
  return {
    ...real,
    isPublicAddress: (address: string) =>
      address === PUBLIC_STAND_IN_ADDRESS || real.isPublicAddress(address),
  };
}

/** A server on PUBLIC_STAND_IN_ADDRESS that starts redirect chains; every request is recorded. */
export interface PublicStandIn {
  baseUrl: string;
  requests: string[];
  /** An address that redirects `hops` more times on this server, then once to `target`. */
  chain(hops: number, target: string): string;
  close(): Promise<void>;
}

export async function startPublicStandIn(): Promise<PublicStandIn> {
  const tone = renderTone(2);
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    requests.push(url.pathname);
    const hop = /^\/chain\/(\d+)$/.exec(url.pathname);
    const target = url.searchParams.get('to') ?? '';
    if (hop && Number(hop[1]) > 0) {
      const next = `/chain/${Number(hop[1]) - 1}?to=${encodeURIComponent(target)}`;
      response.writeHead(302, { location: next }).end();
    } else if (hop) response.writeHead(302, { location: target }).end();
    else if (url.pathname === '/audio.mp3') {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.end(tone);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, PUBLIC_STAND_IN_ADDRESS, resolve));
  const baseUrl = `http://${PUBLIC_STAND_IN_ADDRESS}:${(server.address() as AddressInfo).port}/`;
  return {
    baseUrl,
    requests,
    chain: (hops, target) => `${baseUrl}chain/${hops}?to=${encodeURIComponent(target)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
