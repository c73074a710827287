/**
 * Tracks joined by the player: a track queued behind the current one follows its last frame in the
 * same tick (two halves of one tone come out as one tone: no silent frame, no click), or, with a
 * crossfade, starts under its last seconds (two tones of different pitch sound together for the
 * crossfade's length, equal-power). Decoded from the Opus frames the sink was given.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../shared/result';
import {
  CollectingSink,
  decodeToMono,
  FFMPEG,
  isSilenceFrame,
  makeTempDir,
  renderAudio,
  type TempDir,
  tonePower,
} from '../../testkit/audio-signals';
import { AudioPlayer } from './audio-player';
import type { TrackEnd } from './audio-player-state';
import { FrameScheduler } from './clock/frame-scheduler';
import { PCM_FORMAT, SAMPLES_PER_CHANNEL_PER_FRAME } from './pcm-format';
import type { Track } from './track';

let dir: TempDir;
beforeAll(() => {
  dir = makeTempDir('join-test-');
  // 3 s of 440 Hz is 1,320 whole cycles: the second half starts at the phase the first ends at.
  renderAudio(dir.file('first-half.wav'), '0.4*sin(2*PI*440*t)', 3);
  renderAudio(dir.file('second-half.wav'), '0.4*sin(2*PI*440*t)', 3);
  renderAudio(dir.file('low.wav'), '0.4*sin(2*PI*440*t)', 5);
  renderAudio(dir.file('high.wav'), '0.4*sin(2*PI*660*t)', 5);
});
afterAll(() => dir.remove());

const track = (name: string, durationSeconds: number): Track => ({
  input: { kind: 'file', path: dir.file(name) },
  durationSeconds,
});

/** Plays `first`, queues `second` when the player says `first` is near its end, until both are over. */
async function playJoined(first: Track, second: Track, crossfadeSeconds: number) {
  const sink = new CollectingSink();
  const player = new AudioPlayer({ sink, scheduler: new FrameScheduler(), locateFfmpeg: () => ok(FFMPEG) });
  player.setCrossfade(crossfadeSeconds);
  const joins: { ended: Track; end: TrackEnd; next: Track }[] = [];
  player.on('trackJoined', (ended, end, next) => joins.push({ ended, end, next }));
  player.on('nearEnd', (track) => {
    if (track === first) expect(player.queueNext(second, true)).toBe(true);
  });
  const starts: Track[] = [];
  player.on('trackStart', (track) => starts.push(track));
  player.play(first);
  const [ended] = (await once(player, 'trackEnd')) as [Track, TrackEnd];
  player.destroy();
  return { sink, joins, starts, ended };
}

/** The frames of `mono` (20 ms each) from the first that sounds to the last. */
function soundingSpan(mono: Float64Array): Float64Array[] {
  const frames: Float64Array[] = [];
  for (
    let start = 0;
    start + SAMPLES_PER_CHANNEL_PER_FRAME <= mono.length;
    start += SAMPLES_PER_CHANNEL_PER_FRAME
  )
    frames.push(mono.subarray(start, start + SAMPLES_PER_CHANNEL_PER_FRAME));
  const level = (frame: Float64Array) => Math.sqrt(frame.reduce((sum, x) => sum + x * x, 0) / frame.length);
  const first = frames.findIndex((frame) => level(frame) > 0.01);
  const last = frames.findLastIndex((frame) => level(frame) > 0.01);
  return frames.slice(first, last + 1);
}

describe('AudioPlayer: the next track joined to the current one', () => {
  it('plays two halves of one tone as one tone: no gap, no click', async () => {
    const first = track('first-half.wav', 3);
    const second = track('second-half.wav', 3);
    const { sink, joins, starts, ended } = await playJoined(first, second, 0);
    expect(joins).toHaveLength(1);
    expect(joins[0]).toMatchObject({ ended: first, end: { reason: 'finished' }, next: second });
    expect(starts).toEqual([first, second]);
    expect(ended).toBe(second);

    const voice = sink.voiceFrames;
    // Silence goes out only before the first frame and after the last: none between the two tracks.
    const firstAudio = voice.findIndex((frame) => !isSilenceFrame(frame));
    const lastAudio = voice.findLastIndex((frame) => !isSilenceFrame(frame));
    expect(voice.slice(firstAudio, lastAudio + 1).filter(isSilenceFrame)).toHaveLength(0);
    expect(lastAudio - firstAudio + 1).toBe(300);

    const span = soundingSpan(decodeToMono(voice));
    // 6 s of tone, give or take the encoder's fade in and out at the ends.
    expect(Math.abs(span.length - 300)).toBeLessThanOrEqual(2);
    // The join is 150 frames in; every frame around it carries the tone at its level, and no sample
    // jumps further than a 440 Hz sine at that level can move in one sample (with room for the codec).
    const around = span.slice(140, 160);
    const level = (frame: Float64Array) => Math.sqrt(frame.reduce((sum, x) => sum + x * x, 0) / frame.length);
    for (const frame of around) expect(level(frame)).toBeGreaterThan(0.4 / Math.SQRT2 - 0.04);
    const joined = Float64Array.from(around.flatMap((frame) => Array.from(frame)));
    const sineStep = 0.4 * ((2 * Math.PI * 440) / PCM_FORMAT.sampleRateHz);
    let largestStep = 0;
    for (let i = 1; i < joined.length; i++)
      largestStep = Math.max(largestStep, Math.abs((joined[i] ?? 0) - (joined[i - 1] ?? 0)));
    expect(largestStep).toBeLessThan(sineStep * 1.5);
  }, 30_000);

  it('crossfades two tones of different pitch for the configured time', async () => {
    const low = track('low.wav', 5);
    const high = track('high.wav', 5);
    const { sink, joins } = await playJoined(low, high, 2);
    expect(joins).toHaveLength(1);
    const span = soundingSpan(decodeToMono(sink.voiceFrames));
    // 5 + 5 s less the 2 s they overlap.
    expect(Math.abs(span.length - 400)).toBeLessThanOrEqual(3);
    // Per 100 ms: both tones sound (within 30 dB of their full level) for about the crossfade's length.
    const windows: Float64Array[] = [];
    for (let i = 0; i + 5 <= span.length; i += 5)
      windows.push(Float64Array.from(span.slice(i, i + 5).flatMap((frame) => Array.from(frame))));
    const full = tonePower(windows[2] ?? new Float64Array(0), 440);
    const sounds = (window: Float64Array, hz: number) => tonePower(window, hz) > full / 1000;
    const overlap = windows.filter((window) => sounds(window, 440) && sounds(window, 660)).length * 0.1;
    expect(overlap).toBeGreaterThan(1.6);
    expect(overlap).toBeLessThan(2.3);
    // Equal power: halfway through the fade the sum is as loud as either tone alone.
    // The fade starts 3 s in (frame 150) and lasts 100 frames: its middle is frame 200, window 40.
    const middle = windows[40] ?? new Float64Array(0);
    const total = tonePower(middle, 440) + tonePower(middle, 660);
    expect(10 * Math.log10(total / full)).toBeGreaterThan(-1.5);
    expect(10 * Math.log10(total / full)).toBeLessThan(1.5);
  }, 30_000);
});
