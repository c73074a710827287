/**
 * The project's track decoder (native/pcm-decoder.c) stands in for ffmpeg on every command line
 * daemon/audio/decode/ffmpeg-args.ts builds: each is run through both, and the PCM must match what ffmpeg
 * writes (the same samples for a whole track; a seek within 5 ms of ffmpeg's; the same length cut),
 * and both honour the input's whitelists (no playlist demuxer, no request past the input).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFfmpegArgs, type FfmpegInput } from '../../daemon/audio/decode/ffmpeg-args';
import { PCM_FORMAT } from '../../daemon/audio/pcm-format';
import { FFMPEG, FFMPEG_LOCATION, makeTempDir, type TempDir } from '../../testkit/audio-signals';

const DECODER = FFMPEG_LOCATION.decoderPath ?? '';
const BYTES_PER_SAMPLE = 2 * PCM_FORMAT.channels;

interface Run {
  status: number | null;
  pcm: Buffer;
  stderr: string;
}

/** Asynchronous: the http test's server lives in this process and must answer meanwhile. */
function run(binary: string, args: string[], stdin?: Buffer): Promise<Run> {
  const child = spawn(binary, args);
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => {}); // a decoder that fails early closes its stdin
  child.stdin.end(stdin);
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, pcm: Buffer.concat(out), stderr })),
  );
}

/** The left channel as numbers. */
function left(pcm: Buffer): Int16Array {
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
  return samples.filter((_, i) => i % 2 === 0);
}

/** How many samples `a` is shifted against `b`, the offset (within ±limit) where they differ least. */
function shiftBetween(a: Int16Array, b: Int16Array, limit: number): number {
  let best = 0;
  let bestError = Number.POSITIVE_INFINITY;
  for (let shift = -limit; shift <= limit; shift++) {
    let error = 0;
    for (let i = limit; i < limit + 2000; i++) error += Math.abs(a[i + shift]! - b[i]!);
    if (error < bestError) [best, bestError] = [shift, error];
  }
  return best;
}

function render(dir: TempDir, name: string, args: string[]): string {
  const path = dir.file(name);
  const made = spawnSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', ...args, '-y', path]);
  if (made.status !== 0) throw new Error(made.stderr.toString());
  return path;
}

describe('pcm-decoder', () => {
  let dir: TempDir;
  let mp3: string;
  let m4a: string;
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    expect(DECODER, 'make builds build/pcm-decoder (scripts/build-native.sh)').not.toBe('');
    expect(statSync(DECODER).isFile()).toBe(true);
    dir = makeTempDir();
    // A rising tone: any shift between the two decoders shows as a difference.
    const chirp = ['-f', 'lavfi', '-i', 'aevalsrc=sin(2*PI*(200+40*t)*t):s=44100:d=12'];
    mp3 = render(dir, 'chirp.mp3', [...chirp, '-ac', '2', '-b:a', '192k']);
    m4a = render(dir, 'chirp.m4a', [...chirp, '-c:a', 'aac', '-movflags', '+faststart']);
    server = createServer((request, response) => {
      response.setHeader('content-type', 'audio/mp4');
      createReadStream(dir.file(request.url?.slice(1) ?? '')).pipe(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server?.close();
    dir?.remove();
  });

  const both = async (input: FfmpegInput, seek: number, stopAt?: number, stdin?: Buffer) => {
    const args = buildFfmpegArgs(input, seek, stopAt);
    const [ours, ffmpeg] = await Promise.all([run(DECODER, args, stdin), run(FFMPEG, args, stdin)]);
    return { ours, ffmpeg };
  };

  it('writes the very samples ffmpeg writes for whole MP3 and M4A files', async () => {
    for (const path of [mp3, m4a]) {
      const { ours, ffmpeg } = await both({ kind: 'file', path }, 0);
      expect(ours.status, ours.stderr).toBe(0);
      expect(ours.pcm.length).toBeGreaterThan(11 * PCM_FORMAT.sampleRateHz * BYTES_PER_SAMPLE);
      expect(ours.pcm.equals(ffmpeg.pcm)).toBe(true);
    }
  });

  it('seeks to within 5 ms of where ffmpeg lands, and cuts the same length', async () => {
    const { ours, ffmpeg } = await both({ kind: 'file', path: mp3 }, 3.5, 5.5);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.pcm.length).toBe(ffmpeg.pcm.length);
    expect(ours.pcm.length).toBe(2 * PCM_FORMAT.sampleRateHz * BYTES_PER_SAMPLE);
    const shift = shiftBetween(left(ours.pcm), left(ffmpeg.pcm), 480);
    expect(Math.abs(shift)).toBeLessThanOrEqual(0.005 * PCM_FORMAT.sampleRateHz);
  });

  it('reads an http URL with the reconnect options, seeking by range', async () => {
    const { ours, ffmpeg } = await both({ kind: 'url', url: `${baseUrl}/chirp.m4a` }, 6);
    expect(ours.status, ours.stderr).toBe(0);
    expect(Math.abs(ours.pcm.length - ffmpeg.pcm.length)).toBeLessThanOrEqual(1024 * BYTES_PER_SAMPLE);
    expect(ours.pcm.length).toBeGreaterThan(5.5 * PCM_FORMAT.sampleRateHz * BYTES_PER_SAMPLE);
  });

  it('converts raw PCM of another rate and channel count from its stdin, as ffmpeg does', async () => {
    const mono = spawnSync(FFMPEG, [
      '-loglevel',
      'error',
      '-i',
      mp3,
      '-t',
      '2',
      '-f',
      's16le',
      '-ar',
      '44100',
      '-ac',
      '1',
      'pipe:1',
    ]).stdout;
    const input: FfmpegInput = {
      kind: 'stream',
      stream: undefined as never,
      rawFormat: { sampleRateHz: 44_100, channels: 1 },
    };
    const { ours, ffmpeg } = await both(input, 0, undefined, mono);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.pcm.equals(ffmpeg.pcm)).toBe(true);
  });

  it('honours the whitelists as ffmpeg does: an HLS playlist is no input, and what it names is not fetched', async () => {
    const fetched: string[] = [];
    const trap = createServer((request, response) => {
      fetched.push(request.url ?? '');
      response.end();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const segment = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/seg0.ts`;
    const playlist = ['#EXTM3U', '#EXT-X-TARGETDURATION:2', '#EXTINF:2.0,', segment, '#EXT-X-ENDLIST'];
    writeFileSync(dir.file('list.m3u8'), `${playlist.join('\n')}\n`);
    try {
      const asFile = await both({ kind: 'file', path: dir.file('list.m3u8') }, 0);
      const fromRelay = await both({ kind: 'url', url: `${baseUrl}/list.m3u8` }, 0);
      for (const { ours, ffmpeg } of [asFile, fromRelay]) {
        expect(ours.status).toBe(1);
        expect(ffmpeg.status).not.toBe(0);
      }
      expect(fetched).toEqual([]);
    } finally {
      trap.close();
    }
  });

  it('fails as ffmpeg does: the input and the reason on stderr, exit status 1', async () => {
    const missing = await run(DECODER, buildFfmpegArgs({ kind: 'file', path: dir.file('nothing.mp3') }, 0));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`${dir.file('nothing.mp3')}: No such file or directory`);
    const garbage = dir.file('corrupt.mp3');
    writeFileSync(garbage, Buffer.alloc(4096, 0x5a));
    const corrupt = await run(DECODER, buildFfmpegArgs({ kind: 'file', path: garbage }, 0));
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toContain(garbage);
  });

  it('refuses an argument it does not know rather than ignore it', async () => {
    const refused = await run(DECODER, [
      '-af',
      'volume=2',
      '-i',
      mp3,
      '-f',
      's16le',
      '-ar',
      '48000',
      '-ac',
      '2',
      'pipe:1',
    ]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('unsupported argument -af');
  });
});
