import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AudioCdn, startAudioCdn } from '../../../tests/helpers/audio-cdn';
import { StreamRelay } from './stream-relay';

const HEADERS = { referer: 'https://site/', userAgent: 'UA/1', authorization: 'Token t' };
const relay = new StreamRelay();
let cdn: AudioCdn;
beforeAll(async () => {
  cdn = await startAudioCdn(2);
});
afterAll(() => cdn.close());

const never = { stallMs: 60_000, onStall: () => undefined };

describe('StreamRelay', () => {
  it('fetches the source with its headers and answers on a loopback URL that names none of them', async () => {
    const stream = relay.open({ url: `${cdn.baseUrl}song.mp3?sig=1`, headers: HEADERS }, never);
    const url = await stream.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/stream\/[\w-]{24}$/);
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/mpeg');
    const body = Buffer.from(await answer.arrayBuffer());
    expect(body.length).toBe(Number(answer.headers.get('content-length')));
    expect(cdn.requests.at(-1)).toMatchObject({
      url: '/song.mp3?sig=1',
      headers: {
        referer: 'https://site/',
        'user-agent': 'UA/1',
        authorization: 'Token t',
      },
    });
    stream.close();
  });

  it('forwards a Range request and the partial answer (how ffmpeg seeks and reaches an M4A index)', async () => {
    const stream = relay.open({ url: `${cdn.baseUrl}song.mp3` }, never);
    const whole = Buffer.from(await (await fetch(await stream.url)).arrayBuffer());
    const part = await fetch(await stream.url, { headers: { range: 'bytes=1000-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-${whole.length - 1}/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(1000))).toBe(true);
    stream.close();
  });

  it('follows redirects upstream', async () => {
    const stream = relay.open({ url: `${cdn.baseUrl}moved/song.mp3`, headers: HEADERS }, never);
    expect((await fetch(await stream.url)).status).toBe(200);
    expect(cdn.requests.slice(-2).map((r) => r.url)).toEqual(['/moved/song.mp3', '/song.mp3']);
    stream.close();
  });

  it('follows a redirect to another host without the token (fetch drops it across origins)', async () => {
    // A media server that sends its audio elsewhere: the token is for that server only.
    const redirector = createServer((_, response) =>
      response.writeHead(302, { location: `${cdn.baseUrl}elsewhere.mp3` }).end(),
    );
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const { port } = redirector.address() as AddressInfo;
    const stream = relay.open({ url: `http://127.0.0.1:${port}/Audio/1/stream`, headers: HEADERS }, never);
    try {
      expect((await fetch(await stream.url)).status).toBe(200);
      const arrived = cdn.requests.at(-1)!;
      expect(arrived.url).toBe('/elsewhere.mp3');
      expect(arrived.headers.authorization).toBeUndefined();
      expect(arrived.headers.referer).toBe(HEADERS.referer);
    } finally {
      stream.close();
      redirector.close();
    }
  });

  it('refuses unknown and closed streams', async () => {
    const stream = relay.open({ url: `${cdn.baseUrl}song.mp3` }, never);
    const url = await stream.url;
    expect((await fetch(`${url}x`)).status).toBe(404);
    stream.close();
    expect((await fetch(url)).status).toBe(404);
    expect(relay.openStreams).toBe(0);
  });

  it('gives up an upstream that sends nothing for stallMs and says so once', async () => {
    const onStall = vi.fn();
    const stream = relay.open({ url: `${cdn.baseUrl}stalls/song.mp3` }, { stallMs: 300, onStall });
    const answer = await fetch(await stream.url);
    const started = performance.now();
    await expect(answer.arrayBuffer()).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(onStall).toHaveBeenCalledTimes(1);
    stream.close();
  });

  it('does not count a reader that is full (backpressure) as a stall', async () => {
    // Far more than the sockets between upstream, relay and reader hold: the relay has to wait.
    const big = await startAudioCdn(0, { bytes: Buffer.alloc(48 << 20), contentType: 'audio/flac' });
    const onStall = vi.fn();
    const stream = relay.open({ url: `${big.baseUrl}song.flac` }, { stallMs: 200, onStall });
    const answer = await fetch(await stream.url);
    const reader = answer.body!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 800));
    let bytes = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      bytes += chunk.value.length;
    expect(bytes).toBeGreaterThan(40 << 20);
    expect(onStall).not.toHaveBeenCalled();
    stream.close();
    await big.close();
  });
});

describe('StreamRelay, a user’s address answering a manifest', () => {
  const manifests: Record<string, [string, string]> = {
    '/hls': ['application/octet-stream', '#EXTM3U\n#EXTINF:2.0,\nhttp://10.0.0.1/seg.ts\n'],
    '/id3-hls': ['audio/mpeg', `ID3\x04\0\0\0\0\0\x02ab#EXTM3U\n#EXTINF:2.0,\nhttp://10.0.0.1/seg.ts\n`],
    '/dash': ['application/dash+xml', '<?xml version="1.0"?><MPD><BaseURL>http://10.0.0.1/</BaseURL></MPD>'],
  };
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const [type, body] = manifests[request.url ?? ''] ?? ['text/plain', ''];
      response.writeHead(200, { 'content-type': type }).end(Buffer.from(body, 'latin1'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const open = (path: string, hls: boolean) =>
    relay.open({ url: `${base}${path}`, userAddress: { allowPrivateHosts: true, live: false, hls } }, never);

  it('refuses it (502) where audio is expected, whatever its declared type', async () => {
    for (const path of Object.keys(manifests)) {
      const stream = open(path, false);
      expect((await fetch(await stream.url)).status, path).toBe(502);
      stream.close();
    }
  });

  it('hands an HLS song’s playlist over written anew, naming only the relay, whatever its type', async () => {
    const stream = open('/hls', true);
    const url = await stream.url;
    const answer = await fetch(url);
    expect(answer.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const [segment] = (await answer.text()).split('\n').filter((line) => line && !line.startsWith('#'));
    expect(segment).toMatch(/^\/stream\/[\w-]+\/0\/seg\.ts$/);
    // A DASH manifest is no playlist: refused.
    const dash = open('/dash', true);
    expect((await fetch(await dash.url)).status).toBe(502);
    stream.close();
    dash.close();
  });
});

describe('StreamRelay, a platform’s HLS stream (a YouTube live)', () => {
  let server: Server;
  let base: string;
  const requests: { url: string; authorization: string | undefined }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = request.url ?? '';
      requests.push({ url, authorization: request.headers.authorization });
      const answers: Record<string, string> = {
        // A master playlist naming a variant, whose segments are one here and one on the CDN (another origin).
        '/master.m3u8': '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=128000\nvariant.m3u8\n',
        '/variant.m3u8': `#EXTM3U\n#EXTINF:2.0,\nseg.ts\n#EXTINF:2.0,\n${cdn.baseUrl}song.mp3\n#EXTINF:2.0,\nfake-seg.ts\n#EXT-X-ENDLIST\n`,
        '/seg.ts': 'segment bytes',
        '/fake-seg.ts': '#EXTM3U\n#EXTINF:2.0,\nhttp://10.0.0.1/seg.ts\n',
        '/dash.mpd': '<?xml version="1.0"?><MPD><BaseURL>http://10.0.0.1/</BaseURL></MPD>',
      };
      const body = answers[url];
      if (body === undefined) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const open = (path: string) => relay.open({ url: `${base}${path}`, headers: HEADERS, hls: true }, never);
  const addresses = (playlist: string) =>
    playlist.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

  it('writes its playlists anew and fetches what they name itself, the token only to the stream’s origin', async () => {
    const stream = open('/master.m3u8');
    const url = await stream.url;
    const origin = new URL(url).origin;
    const master = await fetch(url);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const [variantPath] = addresses(await master.text());
    expect(variantPath).toMatch(/^\/stream\/[\w-]+\/0\/variant\.m3u8$/);
    const [segment, cdnSegment, fakeSegment] = addresses(
      await (await fetch(`${origin}${variantPath}`)).text(),
    );
    expect([segment, cdnSegment, fakeSegment]).toEqual([
      expect.stringMatching(/\/1\/seg\.ts$/),
      expect.stringMatching(/\/2\/song\.mp3$/),
      expect.stringMatching(/\/3\/fake-seg\.ts$/),
    ]);
    expect(await (await fetch(`${origin}${segment}`)).text()).toBe('segment bytes');
    expect((await fetch(`${origin}${cdnSegment}`)).status).toBe(200);
    // A segment that is itself a manifest would be followed by ffmpeg's HLS demuxer: refused.
    expect((await fetch(`${origin}${fakeSegment}`)).status).toBe(502);
    expect(requests.slice(-4)).toEqual([
      { url: '/master.m3u8', authorization: HEADERS.authorization },
      { url: '/variant.m3u8', authorization: HEADERS.authorization },
      { url: '/seg.ts', authorization: HEADERS.authorization },
      { url: '/fake-seg.ts', authorization: HEADERS.authorization },
    ]);
    expect(cdn.requests.at(-1)).toMatchObject({ url: '/song.mp3', headers: { 'user-agent': 'UA/1' } });
    expect(cdn.requests.at(-1)?.headers.authorization).toBeUndefined();
    stream.close();
  });

  it('refuses a DASH manifest or anything else that is not a playlist (502), and passes a refusal on', async () => {
    for (const [path, status] of [
      ['/dash.mpd', 502],
      ['/seg.ts', 502],
      ['/missing.m3u8', 404],
    ] as const) {
      const stream = open(path);
      expect((await fetch(await stream.url)).status, path).toBe(status);
      stream.close();
    }
  });
});
