/**
 * A stand-in for a platform's audio CDN on 127.0.0.1: it serves one ffmpeg-made tone (MP3, or the
 * bytes a test gives) at any path and records each request, so a test can check the URL and headers
 * the daemon fetched with. Like a real CDN it answers `Range: bytes=<from>-` with 206 and the rest of
 * the file. Some paths misbehave on purpose:
 * - `/stalls/…` sends the first half of the file, then nothing more (the connection stays open);
 * - `/moved/<path>` redirects (302) to `/<path>`;
 * - `/status/<code>/…` answers with that HTTP status and no audio (a CDN refusing, 403, or missing, 404);
 * - `sign(path, lifeMs)` gives a signed address that expires, as platforms hand out: once its time is
 *   up (or with a signature the CDN did not make) it is answered 403. The first request from the file's
 *   start for a path that starts `drops/` is answered with the file's first half, then, once its
 *   address has expired, the connection is dropped (as a CDN does with one held open too long), so the
 *   player must reconnect.
 */
import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FFMPEG } from '../../testkit/audio-signals';
import { loopbackTlsCredentials } from './loopback-tls';

export interface AudioCdn {
  /** `http://127.0.0.1:<port>/`, or `https://…` for a CDN started with `tls` */
  baseUrl: string;
  requests: { url: string; headers: IncomingHttpHeaders; status: number }[];
  /** A full address of `path` signed to expire `lifeMs` from now (already expired when negative). */
  sign(path: string, lifeMs: number): string;
  close(): Promise<void>;
}

export interface AudioFile {
  bytes: Buffer;
  contentType: string;
}

/** An ffmpeg-made 440 Hz stereo tone, encoded by the file name's extension (`tone.mp3`, `tone.m4a`…). */
export function renderTone(seconds: number, name = 'tone.mp3', encodeArgs: string[] = []): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'audio-cdn-'));
  const file = join(dir, name);
  const render = spawnSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`, '-ac', '2', ...encodeArgs, file],
  ]);
  try {
    if (render.status !== 0) throw new Error(render.stderr.toString());
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `tls`: served over https with the certificate every test process trusts (loopback-tls.ts). */
export async function startAudioCdn(
  toneSeconds = 20,
  file: AudioFile = { bytes: renderTone(toneSeconds), contentType: 'audio/mpeg' },
  { tls = false }: { tls?: boolean } = {},
): Promise<AudioCdn> {
  const { bytes } = file;
  const requests: AudioCdn['requests'] = [];
  const held = new Set<ServerResponse>();
  const secret = randomBytes(16);
  /** The `drops/` paths whose connection has been dropped once already. */
  const dropped = new Set<string>();
  const signature = (expiresAt: number, path: string) =>
    createHmac('sha256', secret).update(`${expiresAt}/${path}`).digest('base64url');
  const serve: RequestListener = (request, response) => {
    let url = request.url ?? '';
    const logged = { url, headers: request.headers, status: 200 };
    requests.push(logged);
    const signed = /^\/signed\/(\d+)\/([\w-]+)\/(.*)$/.exec(url);
    let expiresAt: number | undefined;
    if (signed) {
      const [, at, sig, path] = signed as unknown as [string, string, string, string];
      expiresAt = Number(at);
      if (sig !== signature(expiresAt, path) || Date.now() >= expiresAt) {
        logged.status = 403;
        response.writeHead(403, { 'content-type': 'text/plain' }).end('expired');
        return;
      }
      url = `/${path}`;
    }
    if (url.startsWith('/moved/')) {
      logged.status = 302;
      response.writeHead(302, { location: url.slice('/moved'.length) }).end();
      return;
    }
    const status = /^\/status\/(\d{3})\//.exec(url)?.[1];
    if (status) {
      logged.status = Number(status);
      response.writeHead(Number(status), { 'content-type': 'text/plain' }).end(`status ${status}`);
      return;
    }
    const from = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0);
    const head = { 'content-type': file.contentType, 'accept-ranges': 'bytes' };
    if (from > 0) logged.status = 206;
    if (from > 0)
      response.writeHead(206, {
        ...head,
        'content-length': bytes.length - from,
        'content-range': `bytes ${from}-${bytes.length - 1}/${bytes.length}`,
      });
    else response.writeHead(200, { ...head, 'content-length': bytes.length });
    if (url.startsWith('/drops/') && expiresAt !== undefined && from === 0 && !dropped.has(url)) {
      dropped.add(url);
      response.write(bytes.subarray(0, bytes.length >> 1));
      held.add(response);
      setTimeout(() => response.destroy(), Math.max(0, expiresAt - Date.now()) + 100);
      return;
    }
    if (!url.startsWith('/stalls/')) {
      response.end(bytes.subarray(from));
      return;
    }
    response.write(bytes.subarray(from, Math.max(from, bytes.length >> 1)));
    held.add(response);
  };
  const server = tls ? createHttpsServer(loopbackTlsCredentials(), serve) : createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    baseUrl,
    requests,
    sign: (path, lifeMs) => {
      const expiresAt = Math.max(0, Date.now() + lifeMs);
      return `${baseUrl}signed/${expiresAt}/${signature(expiresAt, path)}/${path}`;
    },
    close: () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
