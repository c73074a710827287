/**
 * A song's cover art turned into an avatar, fetched from a loopback server standing in for a platform's
 * picture host (so these calls allow private hosts): a real picture fits the avatar limit, and a
 * picture that never ends (or says it is too large) is given up at the download bound, while it is
 * read, not after the whole of it has arrived. Without that allowance a loopback cover is never asked.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FFMPEG } from '../../../testkit/audio-signals';
import { AVATAR_MAX_BYTES, coverArtAvatar, coverMayBePrivate, DOWNLOAD_MAX_BYTES } from './cover-art-avatar';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/cover.jpg`;
}

describe('cover art avatar', () => {
  it('turns a picture into a JPEG within the avatar limit', async () => {
    const png = spawnSync(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=800x800'],
      ...['-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
    ]).stdout;
    const url = await serve((_, response) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end(png),
    );
    const avatar = await coverArtAvatar(url, FFMPEG, true);
    if (!avatar.ok) throw new Error(avatar.error);
    expect([...avatar.value.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(avatar.value.length).toBeLessThanOrEqual(AVATAR_MAX_BYTES);
  });

  it('stops reading a picture that never ends at the bound, long before the download deadline', async () => {
    let sent = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 0xab);
    const url = await serve(async (_, response) => {
      // Chunked, no Content-Length: only counting while reading can tell it is too large.
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      // One wait for drain at a time, ended by the close: no listener is left behind per chunk.
      const gone = new AbortController();
      response.once('close', () => {
        closed = true;
        gone.abort();
      });
      while (!closed) {
        sent += chunk.length;
        if (!response.write(chunk))
          await once(response, 'drain', { signal: gone.signal }).catch(() => undefined);
      }
    });
    const started = performance.now();
    expect(await coverArtAvatar(url, FFMPEG, true)).toEqual({
      ok: false,
      error: 'the cover art is too large',
    });
    // The deadline is 10 s: reading on until then would hold everything sent in memory.
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect.poll(() => closed).toBe(true);
    expect(sent).toBeLessThan(DOWNLOAD_MAX_BYTES + 8 * 1024 * 1024);
  });

  it('refuses a picture whose Content-Length is over the bound without reading it', async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': DOWNLOAD_MAX_BYTES + 1 });
      response.write(Buffer.alloc(1024));
    });
    expect(await coverArtAvatar(url, FFMPEG, true)).toEqual({
      ok: false,
      error: 'the cover art is too large',
    });
  });

  it('never asks a private or loopback address unless allowed (a client can send any song object)', async () => {
    let asked = 0;
    const url = await serve((_, response) => {
      asked++;
      response.writeHead(200, { 'content-type': 'image/png' }).end('x');
    });
    const refused = await coverArtAvatar(url, FFMPEG, false);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatch(/private or local address/);
    expect(asked).toBe(0);
  });

  it('allows a private cover only on the admin’s Jellyfin server, or when private hosts are allowed', () => {
    const jellyfin = {
      serverUrl: 'http://192.168.1.20:8096',
      authMode: 'apikey' as const,
      username: '',
      password: '',
    };
    const settings = { streamAllowPrivateHosts: false, jellyfin };
    expect(coverMayBePrivate('http://192.168.1.20:8096/Items/abc/Images/Primary', settings)).toBe(true);
    expect(coverMayBePrivate('http://192.168.1.20:8097/Items/abc/Images/Primary', settings)).toBe(false);
    expect(coverMayBePrivate('http://10.0.0.1/cover.jpg', settings)).toBe(false);
    expect(
      coverMayBePrivate('http://10.0.0.1/cover.jpg', {
        ...settings,
        jellyfin: { ...jellyfin, serverUrl: '' },
      }),
    ).toBe(false);
    expect(
      coverMayBePrivate('http://10.0.0.1/cover.jpg', { ...settings, streamAllowPrivateHosts: true }),
    ).toBe(true);
  });
});
