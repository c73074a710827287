/**
 * The real ffmpeg measures generated sines whose loudness BS.1770 fixes (see stereoSine), silence, and
 * refuses what it cannot read; the summary parser reads the real filter's log.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FFMPEG, makeTempDir } from '../../../testkit/audio-signals';
import { stereoSine } from '../../../tests/uploads/media-files';
import { measureLoudness, parseEbur128Summary } from './loudness-measure';

const dir = makeTempDir('loudness-measure-');
afterAll(() => dir.remove());

const sineFile = (amplitude: number, extension = 'wav') => {
  const path = dir.file(`sine-${amplitude}.${extension}`);
  writeFileSync(path, stereoSine(dir.path, { amplitude, seconds: 5, extension }));
  return path;
};

describe('measuring a file', () => {
  it('reads a -20 dBFS stereo sine as -20 LUFS with a -20 dBFS true peak', async () => {
    const measured = await measureLoudness(FFMPEG, sineFile(0.1));
    expect(measured.ok && measured.value?.source).toBe('measured');
    if (!measured.ok || !measured.value) throw new Error('no figure');
    expect(measured.value.integratedLufs).toBeGreaterThan(-20.3);
    expect(measured.value.integratedLufs).toBeLessThan(-19.7);
    expect(measured.value.peakDb).toBeGreaterThan(-20.3);
    expect(measured.value.peakDb).toBeLessThan(-19.7);
  });

  it('reads a sine 20 dB quieter, in a lossy container, 20 LU lower', async () => {
    const loud = await measureLoudness(FFMPEG, sineFile(0.3, 'mp3'));
    const quiet = await measureLoudness(FFMPEG, sineFile(0.03, 'mp3'));
    if (!loud.ok || !quiet.ok || !loud.value || !quiet.value) throw new Error('no figure');
    expect(loud.value.integratedLufs - quiet.value.integratedLufs).toBeCloseTo(20, 0);
    expect(loud.value.integratedLufs).toBeCloseTo(20 * Math.log10(0.3), 0);
  });

  it('has no figure for silence', async () => {
    expect(await measureLoudness(FFMPEG, sineFile(0))).toEqual({ ok: true, value: undefined });
  });

  it('fails on a missing file, a file that is no audio, and past its time limit', async () => {
    expect((await measureLoudness(FFMPEG, dir.file('missing.wav'))).ok).toBe(false);
    const junk = dir.file('junk.wav');
    writeFileSync(junk, Buffer.alloc(4096, 0x5a));
    expect((await measureLoudness(FFMPEG, junk)).ok).toBe(false);
    const tooSlow = await measureLoudness(FFMPEG, sineFile(0.1), 1);
    expect(tooSlow).toEqual({ ok: false, error: 'ffmpeg took too long to measure the file' });
  });
});

describe('the ebur128 summary', () => {
  const summary = (integrated: string, peak: string) =>
    [
      '[Parsed_ebur128_0 @ 0x5580ad75d9c0] Summary:',
      '',
      '  Integrated loudness:',
      `    I:         ${integrated} LUFS`,
      '    Threshold: -33.1 LUFS',
      '',
      '  True peak:',
      `    Peak:      ${peak} dBFS`,
    ].join('\n');

  it('reads the integrated loudness and the peak of the last "Summary:" only', () => {
    // A tag printed with the input may hold anything; the frame lines come before the summary too.
    const tag = `    comment         : ${summary('-1.0', '0.0')}`;
    const frame = '[Parsed_ebur128_0] t: 9.9  M: -5.0 S: -5.0  I: -5.0 LUFS  TPK: -1.0 -1.0 dBFS';
    const log = [tag, frame, summary('-23.1', '-3.4')].join('\n');
    expect(parseEbur128Summary(log)).toEqual({ integratedLufs: -23.1, peakDb: -3.4, source: 'measured' });
  });

  it('leaves the peak out when it is -inf, and has nothing without a summary', () => {
    expect(parseEbur128Summary(summary('-41.0', '-inf'))).toEqual({
      integratedLufs: -41,
      source: 'measured',
    });
    expect(parseEbur128Summary('Stream #0:0: Audio: pcm_s16le')).toBeUndefined();
  });
});
