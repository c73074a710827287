/**
 * A stand-in for a platform's audio CDN on 127.0.0.1: it serves one ffmpeg-made tone (MP3) at any
 * path and records each request, so a test can check the URL and headers ffmpeg fetched with.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FFMPEG } from './audio-signals';

export interface AudioCdn {
  /** `http://127.0.0.1:<port>/` */
  baseUrl: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startAudioCdn(toneSeconds = 20): Promise<AudioCdn> {
  const dir = mkdtempSync(join(tmpdir(), 'audio-cdn-'));
  const tone = join(dir, 'tone.mp3');
  const render = spawnSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=440:sample_rate=48000:duration=${toneSeconds}`, '-ac', '2', tone],
  ]);
  if (render.status !== 0) throw new Error(render.stderr.toString());
  const bytes = readFileSync(tone);
  rmSync(dir, { recursive: true, force: true });
  const requests: AudioCdn['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': bytes.length });
    response.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
