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
  loudnessLufs,
  makeTempDir,
  peakDbfs,
  renderAudio,
  type TempDir,
} from '../../../testkit/audio-signals';
import { AudioPlayer } from '../audio-player';
import { FrameScheduler } from '../clock/frame-scheduler';
import type { LoudnessReport } from '../engine/track-pipeline';
import type { Track } from '../track';

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

/** After the first second, where a measured track's gain may still be settling. */
const settled = (mono: Float64Array) => loudnessLufs(mono.subarray(48_000));

describe('loudness normalization through the player', () => {
  it('brings files 20 dB apart to the target, within 1 LU, measuring them as they decode', async () => {
    const quiet = await played('quiet.wav', TARGET);
    const loud = await played('loud.wav', TARGET);
    expect(Math.abs(settled(quiet.mono) - TARGET)).toBeLessThan(1);
    expect(Math.abs(settled(loud.mono) - TARGET)).toBeLessThan(1);
    expect(quiet.report?.source).toBe('measured');
    expect(quiet.report?.gainDb).toBeCloseTo(14, 0);
    expect(loud.report?.gainDb).toBeCloseTo(-6, 0);
    for (const { mono } of [quiet, loud]) expect(peakDbfs(mono)).toBeLessThan(TRUE_PEAK_CEILING_DB);
  });

  it('plays them 20 dB apart again with normalization off, and reports nothing', async () => {
    const quiet = await played('quiet.wav', undefined);
    const loud = await played('loud.wav', undefined);
    expect(settled(loud.mono) - settled(quiet.mono)).toBeCloseTo(20, 0);
    expect(quiet.report).toBeUndefined();
  });

  it("uses a track's known figure over measuring it, and limits a gain that would pass the ceiling", async () => {
    // The figure says -40 LUFS: +18 dB (the most it gives) would take the -10 dBFS peaks to +8 dBFS.
    const limited = await played('loud.wav', TARGET, { integratedLufs: -40, source: 'tags' });
    expect(limited.report).toEqual({ gainDb: 18, source: 'tags' });
    expect(peakDbfs(limited.mono)).toBeLessThan(TRUE_PEAK_CEILING_DB);
    expect(peakDbfs(limited.mono)).toBeGreaterThan(TRUE_PEAK_CEILING_DB - 2);
  });
});
