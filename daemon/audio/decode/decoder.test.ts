import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  estimateFrequencyHz,
  FFMPEG,
  leftChannel,
  renderTestFiles,
  type TempDir,
  tonePower,
} from '../../../testkit/audio-signals';
import { descendantCommandLines } from '../../../tests/hardening/child-processes';
import { type AudioCdn, startAudioCdn } from '../../../tests/helpers/audio-cdn';
import { BYTES_PER_SECOND } from '../pcm-format';
import { Decoder, type DecoderExit } from './decoder';
import { PCM_HIGH_WATER_BYTES, PCM_LOW_WATER_BYTES } from './pcm-buffer';

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
      expect(exit.problem).toBe('formatUnsupported');
      expect(exit.message).toMatch(/^ffmpeg failed: .*corrupt\.mp3: .+/);
    }
    expect(decoder.stderrTail).toContain('corrupt.mp3');
  });

  it('tells a file that is gone by its kind', async () => {
    const decoder = new Decoder({ ffmpegPath: FFMPEG, input: { kind: 'file', path: dir.file('gone.mp3') } });
    expect(await exitOf(decoder)).toMatchObject({ kind: 'failed', problem: 'sourceNotFound' });
  });

  it('reports a missing binary as a spawn failure', async () => {
    const decoder = new Decoder({
      ffmpegPath: '/nonexistent/ffmpeg',
      input: { kind: 'file', path: dir.file('tone.wav') },
    });
    const exit = await exitOf(decoder);
    expect(exit).toMatchObject({ kind: 'failed', problem: 'decoderMissing' });
    if (exit.kind === 'failed')
      expect(exit.message).toMatch(/ENOENT.*install the ffmpeg package or set FFMPEG_PATH/);
    decoder.kill();
  });
});

describe('Decoder on a platform stream', () => {
  const SECRETS = {
    referer: 'https://site/r3ferer5ecret',
    authorization: 'MediaBrowser Token="t0ken5ecret"',
  };
  let mp3: AudioCdn;
  let m4a: AudioCdn;
  beforeAll(async () => {
    mp3 = await startAudioCdn(20);
    // AAC in MP4 as ffmpeg writes it by default: the `moov` index after the audio, which a pipe cannot play.
    const path = dir.file('two-tones.m4a');
    spawnSync(FFMPEG, ['-loglevel', 'error', '-y', '-i', dir.file('two-tones.flac'), '-c:a', 'aac', path]);
    m4a = await startAudioCdn(0, { bytes: readFileSync(path), contentType: 'audio/mp4' });
  });
  afterAll(async () => {
    await mp3.close();
    await m4a.close();
  });

  it('sends the headers itself: no token or other header on any child’s command line', async () => {
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'url', url: `${mp3.baseUrl}song.mp3`, headers: { ...SECRETS, userAgent: 'UA/1' } },
    });
    await once(decoder, 'spawn');
    const lines = descendantCommandLines();
    expect(lines.some((line) => line.includes('ffmpeg') && line.includes('127.0.0.1'))).toBe(true);
    for (const secret of ['r3ferer5ecret', 't0ken5ecret', 'UA/1'])
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    // ffmpeg's first request can take a while on a loaded machine: waitFor's 1 s default is too tight.
    await vi.waitFor(() => expect(mp3.requests.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(mp3.requests.at(-1)?.headers).toMatchObject({
      referer: SECRETS.referer,
      authorization: SECRETS.authorization,
    });
    decoder.kill();
  });

  it('plays and seeks an M4A whose index comes last (Range requests through the relay)', async () => {
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'url', url: `${m4a.baseUrl}song.m4a`, headers: SECRETS },
      seekSeconds: 3,
    });
    expect(await exitOf(decoder)).toEqual({ kind: 'finished' });
    const mono = leftChannel(drain(decoder));
    // One second, give or take the AAC encoder's priming.
    expect(Math.abs(mono.length - 48_000)).toBeLessThan(2000);
    expect(tonePower(mono, 880)).toBeGreaterThan(100 * tonePower(mono, 440));
    expect(m4a.requests.some((r) => r.headers.range && r.headers.range !== 'bytes=0-')).toBe(true);
  });

  it.each([
    [403, 'sourceRefused'],
    [401, 'sourceRefused'],
    [404, 'sourceNotFound'],
  ] as const)('tells a stream answered with HTTP %i as %s', async (status, problem) => {
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'url', url: `${mp3.baseUrl}status/${status}/song.mp3`, headers: SECRETS },
    });
    const exit = await exitOf(decoder);
    expect(exit, decoder.stderrTail).toMatchObject({ kind: 'failed', problem });
  });

  it('tells a stream whose server sends something that is not audio as an unsupported format', async () => {
    const page = await startAudioCdn(0, {
      bytes: Buffer.from('<html>not audio</html>'),
      contentType: 'text/html',
    });
    onTestFinished(() => page.close());
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'url', url: `${page.baseUrl}song.mp3` },
    });
    expect(await exitOf(decoder)).toMatchObject({ kind: 'failed', problem: 'formatUnsupported' });
  });

  it('ends as stalled when the stream sends nothing for stallMs, with what it had decoded', async () => {
    // Short enough that its first half fits the PCM buffer: ffmpeg is left waiting for the stream.
    const short = await startAudioCdn(4);
    onTestFinished(() => short.close());
    const decoder = new Decoder({
      ffmpegPath: FFMPEG,
      input: { kind: 'url', url: `${short.baseUrl}stalls/song.mp3` },
      stallMs: 500,
    });
    await once(decoder, 'spawn');
    const pid = decoder.pid;
    expect(await exitOf(decoder)).toEqual({ kind: 'stalled', stallSeconds: 0.5 });
    expect(decoder.pcm.byteLength).toBeGreaterThan(0);
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5000 });
  });
});
