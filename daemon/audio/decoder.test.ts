import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  estimateFrequencyHz,
  FFMPEG,
  leftChannel,
  renderTestFiles,
  type TempDir,
  tonePower,
} from '../../tests/helpers/audio-signals';
import { Decoder, type DecoderExit } from './decoder';
import { PCM_HIGH_WATER_BYTES, PCM_LOW_WATER_BYTES } from './pcm-buffer';
import { BYTES_PER_SECOND } from './pcm-format';

let dir: TempDir;
beforeAll(() => {
  dir = renderTestFiles();
});
afterAll(() => dir.remove());

const exitOf = async (decoder: Decoder): Promise<DecoderExit> =>
  decoder.exit ?? ((await once(decoder, 'exit')) as [DecoderExit])[0];

function drain(decoder: Decoder): Int16Array {
  const frames: Int16Array[] = [];
  for (let frame = decoder.pcm.readFrame(); frame; frame = decoder.pcm.readFrame()) frames.push(frame);
  const pcm = new Int16Array(frames.reduce((sum, f) => sum + f.length, 0));
  let offset = 0;
  for (const frame of frames) {
    pcm.set(frame, offset);
    offset += frame.length;
  }
  return pcm;
}

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Decoder', () => {
  it('decodes a file to 48 kHz stereo s16le', async () => {
    const decoder = new Decoder({ ffmpegPath: FFMPEG, input: { kind: 'file', path: dir.file('tone.wav') } });
    expect(await exitOf(decoder)).toEqual({ kind: 'finished' });
    expect(decoder.pcm.byteLength).toBe(BYTES_PER_SECOND);
    expect(estimateFrequencyHz(leftChannel(drain(decoder)))).toBeCloseTo(440, 0);
  });

  it('seeks with -ss to the second tone', async () => {
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'file', path: dir.file('two-tones.flac') },
      seekSeconds: 3,
    });
    await exitOf(decoder);
    const mono = leftChannel(drain(decoder));
    expect(mono.length).toBeCloseTo(48_000, -2);
    expect(tonePower(mono, 880)).toBeGreaterThan(100 * tonePower(mono, 440));
  });

  it('reads another process’s raw PCM stream', async () => {
    const producer = spawn(FFMPEG, [
      '-loglevel',
      'error',
      '-i',
      dir.file('tone.wav'),
      '-f',
      's16le',
      '-ar',
      '44100',
      '-ac',
      '1',
      'pipe:1',
    ]);
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'stream', stream: producer.stdout, rawFormat: { sampleRateHz: 44_100, channels: 1 } },
    });
    expect(await exitOf(decoder)).toEqual({ kind: 'finished' });
    const mono = leftChannel(drain(decoder));
    expect(mono.length).toBeCloseTo(48_000, -2);
    expect(estimateFrequencyHz(mono)).toBeCloseTo(440, 0);
  });

  it('pauses the child’s stdout at 960 KB and resumes it at 480 KB', async () => {
    const decoder = new Decoder({ ffmpegPath: FFMPEG, input: { kind: 'file', path: dir.file('long.wav') } });
    await vi.waitFor(() => expect(decoder.readingPaused).toBe(true), { timeout: 10_000 });
    const pausedAt = decoder.pcm.byteLength;
    expect(pausedAt).toBeGreaterThanOrEqual(PCM_HIGH_WATER_BYTES);
    // One pipe read may overshoot the mark, but no more: the child is really held back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(decoder.pcm.byteLength).toBe(pausedAt);
    expect(decoder.pcm.byteLength).toBeLessThan(PCM_HIGH_WATER_BYTES + 256 * 1024);
    while (decoder.pcm.byteLength > PCM_LOW_WATER_BYTES + 4096) decoder.pcm.readFrame();
    expect(decoder.readingPaused).toBe(true);
    while (decoder.pcm.byteLength > PCM_LOW_WATER_BYTES) decoder.pcm.readFrame();
    expect(decoder.readingPaused).toBe(false);
    decoder.kill();
  });

  it('kills the child on request, reaps it, and tolerates a second kill', async () => {
    const decoder = new Decoder({ ffmpegPath: FFMPEG, input: { kind: 'file', path: dir.file('long.wav') } });
    await once(decoder, 'spawn');
    const pid = decoder.pid;
    expect(isAlive(pid)).toBe(true);
    decoder.kill();
    decoder.kill();
    expect(decoder.exit).toEqual({ kind: 'killed' });
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5000 });
  });

  it('reaps a child killed while backpressure holds its pipe', async () => {
    const decoder = new Decoder({ ffmpegPath: FFMPEG, input: { kind: 'file', path: dir.file('long.wav') } });
    await vi.waitFor(() => expect(decoder.readingPaused).toBe(true), { timeout: 10_000 });
    const pid = decoder.pid;
    decoder.kill();
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5000 });
    expect(decoder.readingPaused).toBe(false);
  });

  it('explains a corrupt file with ffmpeg’s own message', async () => {
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'file', path: dir.file('corrupt.mp3') },
    });
    const exit = await exitOf(decoder);
    expect(exit.kind).toBe('failed');
    if (exit.kind === 'failed') {
      expect(exit.spawnFailed).toBe(false);
      expect(exit.message).toMatch(/^ffmpeg failed: .*corrupt\.mp3: .+/);
    }
    expect(decoder.stderrTail).toContain('corrupt.mp3');
  });

  it('reports a missing binary as a spawn failure', async () => {
    const decoder = new Decoder({
      ffmpegPath: '/nonexistent/ffmpeg',
      input: { kind: 'file', path: dir.file('tone.wav') },
    });
    const exit = await exitOf(decoder);
    expect(exit).toMatchObject({ kind: 'failed', spawnFailed: true });
    if (exit.kind === 'failed')
      expect(exit.message).toMatch(/ENOENT.*install the ffmpeg package or set FFMPEG_PATH/);
    decoder.kill();
  });
});
