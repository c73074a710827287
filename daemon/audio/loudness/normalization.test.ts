/**
 * Loudness normalization heard as a listener hears it: two files 20 dB apart played by a real player
 * (ffmpeg, the audio worker, Opus), the Opus frames it sent decoded and measured with BS.1770.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRUE_PEAK_CEILING_DB } from '../../../shared/domain/loudness';
import { ok } from '../../../shared/result';
import {
  CollectingSink,
  decodeToMono,
  FFMPEG,
  makeTempDir,
  renderAudio,
  type TempDir,
} from '../../../testkit/audio-signals';
import { AudioPlayer } from '../audio-player';
import { FrameScheduler } from '../clock/frame-scheduler';
import type { LoudnessReport } from '../engine/track-pipeline';
import type { Track } from '../track';
import { LoudnessMeter } from './loudness-meter';

const TARGET = -16;
let dir: TempDir;
beforeAll(() => {
  dir = makeTempDir('loudness-test-');
  // A 1 kHz stereo sine's loudness is its peak in dBFS: -30 and -10 LUFS.
  renderAudio(dir.file('quiet.wav'), `${10 ** (-30 / 20)}*sin(2*PI*1000*t)`, 4);
  renderAudio(dir.file('loud.wav'), `${10 ** (-10 / 20)}*sin(2*PI*1000*t)`, 4);
});
afterAll(() => dir.remove());

/** What a player sends of `name`, decoded, with the normalization it reported. */
async function played(name: string, targetLufs: number | undefined, known?: Track['loudness']) {
  const sink = new CollectingSink();
  const player = new AudioPlayer({
    sink,
    scheduler: new FrameScheduler(),
    locateFfmpeg: () => ok(FFMPEG),
    volumePercent: 100,
    ...(targetLufs === undefined ? {} : { loudnessTargetLufs: targetLufs }),
  });
  let report: LoudnessReport | undefined;
  player.on('trackStart', () => {
    report = undefined;
  });
  const ended = once(player, 'trackEnd');
  player.play({
    input: { kind: 'file', path: dir.file(name) },
    durationSeconds: 4,
    ...(known ? { loudness: known } : {}),
  });
  const poll = setInterval(() => {
    report = player.loudness ?? report;
  }, 50);
  await ended;
  clearInterval(poll);
  player.destroy();
  const mono = decodeToMono(sink.voiceFrames);
  return { mono, report };
}

/** BS.1770 loudness of a decoded left channel heard in both ears, after its first second. */
function loudnessOf(mono: Float64Array): number {
  const meter = new LoudnessMeter();
  const bytes = Buffer.alloc((mono.length - 48_000) * 4);
  for (let i = 48_000; i < mono.length; i++) {
    const sample = Math.round((mono[i] ?? 0) * 32767);
    bytes.writeInt16LE(sample, (i - 48_000) * 4);
    bytes.writeInt16LE(sample, (i - 48_000) * 4 + 2);
  }
  meter.addBytes(bytes);
  return meter.integrated() ?? Number.NEGATIVE_INFINITY;
}

const peakDb = (mono: Float64Array) =>
  20 * Math.log10(mono.reduce((peak, x) => Math.max(peak, Math.abs(x)), 0));

describe('loudness normalization through the player', () => {
  it('brings files 20 dB apart to the target, within 1 LU, measuring them as they decode', async () => {
    const quiet = await played('quiet.wav', TARGET);
    const loud = await played('loud.wav', TARGET);
    console.log('LOUD', loudnessOf(quiet.mono), loudnessOf(loud.mono), quiet.report, loud.report);
    expect(Math.abs(loudnessOf(quiet.mono) - TARGET)).toBeLessThan(1);
    expect(Math.abs(loudnessOf(loud.mono) - TARGET)).toBeLessThan(1);
    expect(quiet.report?.source).toBe('measured');
    expect(quiet.report?.gainDb).toBeCloseTo(14, 0);
    expect(loud.report?.gainDb).toBeCloseTo(-6, 0);
    for (const { mono } of [quiet, loud]) expect(peakDb(mono)).toBeLessThan(TRUE_PEAK_CEILING_DB);
  });

  it('plays them 20 dB apart again with normalization off, and reports nothing', async () => {
    const quiet = await played('quiet.wav', undefined);
    const loud = await played('loud.wav', undefined);
    expect(loudnessOf(loud.mono) - loudnessOf(quiet.mono)).toBeCloseTo(20, 0);
    expect(quiet.report).toBeUndefined();
  });

  it("uses a track's known figure over measuring it, and limits a gain that would pass the ceiling", async () => {
    // The figure says -40 LUFS: +18 dB (the most it gives) would take the -10 dBFS peaks to +8 dBFS.
    const limited = await played('loud.wav', TARGET, { integratedLufs: -40, source: 'tags' });
    expect(limited.report).toEqual({ gainDb: 18, source: 'tags' });
    expect(peakDb(limited.mono)).toBeLessThan(TRUE_PEAK_CEILING_DB);
    expect(peakDb(limited.mono)).toBeGreaterThan(TRUE_PEAK_CEILING_DB - 2);
  });
});
