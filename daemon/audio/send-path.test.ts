/**
 * The send path's promises (issue #14): a control change reaches the wire within
 * 100 ms, no frame is sent twice or dropped across a seek or a skip, and a decoder that falls behind
 * costs silence frames, never a stalled clock. Measured in frames sent, not in wall time, so a busy
 * machine cannot make them flaky.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ok } from '../../shared/result';
import {
  CollectingSink,
  decodeToMono,
  FFMPEG,
  frameIndices,
  INDEX_TONES,
  isSilenceFrame,
  OPUS_DELAY_SAMPLES,
  renderTestFiles,
  rms,
  type TempDir,
  worstSineMisfit,
} from '../../testkit/audio-signals';
import { AudioPlayer } from './audio-player';
import type { TrackEnd } from './audio-player-state';
import { FrameScheduler } from './clock/frame-scheduler';
import { FRAME_BYTES, SAMPLES_PER_CHANNEL_PER_FRAME } from './pcm-format';
import type { Track } from './track';

let dir: TempDir;
beforeAll(() => {
  dir = renderTestFiles();
});
afterAll(() => dir.remove());

/** 100 ms of 20 ms frames. */
const CONTROL_DEADLINE_FRAMES = 5;

const audioOf = (sink: CollectingSink) => sink.voiceFrames.filter((frame) => !isSilenceFrame(frame));
const fileTrack = (name: string, durationSeconds: number): Track => ({
  input: { kind: 'file', path: dir.file(name) },
  durationSeconds,
});
const trackEnd = async (player: AudioPlayer): Promise<TrackEnd> =>
  ((await once(player, 'trackEnd')) as [Track, TrackEnd])[1];

/** Each step between consecutive frame indices (mod INDEX_TONES); 1 everywhere is every frame once. */
function steps(indices: number[]): number[] {
  return indices.slice(1).map((index, i) => (index - (indices[i] ?? 0) + INDEX_TONES) % INDEX_TONES);
}

describe('the send path', () => {
  function newPlayer() {
    const sink = new CollectingSink();
    const player = new AudioPlayer({
      sink,
      scheduler: new FrameScheduler(),
      locateFfmpeg: () => ok(FFMPEG),
    });
    return { sink, player };
  }

  it('puts a volume change on the wire within 100 ms (5 frames)', async () => {
    const { sink, player } = newPlayer();
    player.play(fileTrack('long.wav', 20));
    await vi.waitFor(() => expect(audioOf(sink).length).toBeGreaterThan(25), { timeout: 10_000 });
    const sentBefore = audioOf(sink).length;
    player.setVolume(0);
    await vi.waitFor(() => expect(audioOf(sink).length).toBeGreaterThan(sentBefore + 15), { timeout: 5000 });
    player.destroy();
    const mono = decodeToMono(audioOf(sink));
    const levelOf = (frame: number) => {
      const start = OPUS_DELAY_SAMPLES + frame * SAMPLES_PER_CHANNEL_PER_FRAME;
      return rms(mono.subarray(start, start + SAMPLES_PER_CHANNEL_PER_FRAME));
    };
    const fullLevel = levelOf(sentBefore - 5);
    let firstQuieter = sentBefore;
    while (levelOf(firstQuieter) > 0.9 * fullLevel) firstQuieter++;
    // Frame `sentBefore + k` is the (k+1)-th frame sent after the change: k + 1 ticks of 20 ms.
    expect(firstQuieter - sentBefore + 1).toBeLessThanOrEqual(CONTROL_DEADLINE_FRAMES);
    expect(levelOf(firstQuieter + 5)).toBeLessThan(0.01 * fullLevel);
  });

  it('sends every frame once and in order across gain changes, a slider drag among them', async () => {
    const { sink, player } = newPlayer();
    const ended = trackEnd(player);
    player.play(fileTrack('frame-index.wav', 4));
    const sentMore = async (frames: number) => {
      const from = audioOf(sink).length;
      await vi.waitFor(() => expect(audioOf(sink).length).toBeGreaterThan(from + frames), { timeout: 5000 });
    };
    await sentMore(30);
    player.setVolume(80);
    await sentMore(3);
    // Changes in one tick, as a dragged slider sends them: each supersedes the one before.
    for (const volume of [75, 70, 65, 60]) player.setVolume(volume);
    await sentMore(1);
    player.setVolume(90);
    await sentMore(20);
    player.setVolume(100);
    expect(await ended).toEqual({ reason: 'finished' });
    player.destroy();
    const indices = frameIndices(decodeToMono(audioOf(sink)));
    expect(indices[0]).toBe(0);
    expect(steps(indices).every((step) => step === 1)).toBe(true);
    expect(audioOf(sink).length).toBe(200);
  });

  it('changes the gain without a click: the tone stays one clean sine through the change', async () => {
    const { sink, player } = newPlayer();
    player.play(fileTrack('long.wav', 20));
    await vi.waitFor(() => expect(audioOf(sink).length).toBeGreaterThan(30), { timeout: 10_000 });
    // An underrun on a loaded machine would splice silence into the stretch: then the change is tried
    // again, the other way.
    let misfit: number | undefined;
    for (let attempt = 0; attempt < 3 && misfit === undefined; attempt++) {
      const sentBefore = sink.voiceFrames.length;
      player.setVolume(attempt % 2 === 0 ? 70 : 100);
      await vi.waitFor(() => expect(sink.voiceFrames.length).toBeGreaterThan(sentBefore + 20), {
        timeout: 5000,
      });
      if (sink.voiceFrames.slice(sentBefore - 5, sentBefore + 15).some(isSilenceFrame)) continue;
      const audioBefore = sink.voiceFrames.slice(0, sentBefore).filter((f) => !isSilenceFrame(f)).length;
      const mono = decodeToMono(audioOf(sink));
      const at = (frame: number) => OPUS_DELAY_SAMPLES + frame * SAMPLES_PER_CHANNEL_PER_FRAME;
      misfit = worstSineMisfit(mono.subarray(at(audioBefore - 5), at(audioBefore + 15)), 440);
    }
    player.destroy();
    // Without any change the codec's own misfit is about 0.006; the 50 ms gain ramp alone makes 0.03.
    expect(misfit).toBeLessThan(0.05);
  });

  it('sends every frame once and in order across a seek', async () => {
    const { sink, player } = newPlayer();
    const ended = trackEnd(player);
    player.play(fileTrack('frame-index.wav', 4));
    await vi.waitFor(() => expect(audioOf(sink).length).toBeGreaterThan(30), { timeout: 10_000 });
    const sentBeforeSeek = audioOf(sink).length;
    player.seek(2);
    expect(await ended).toEqual({ reason: 'finished' });
    player.destroy();
    const indices = frameIndices(decodeToMono(audioOf(sink)));
    // Before the seek: frames 0, 1, 2, … with no gap; after it: frame 100 (2 s) to the last, frame 199.
    expect(indices.slice(0, sentBeforeSeek)).toEqual(
      indices.slice(0, sentBeforeSeek).map((_, i) => i % INDEX_TONES),
    );
    const afterSeek = indices.slice(sentBeforeSeek);
    expect(afterSeek[0]).toBe(100 % INDEX_TONES);
    expect(steps(afterSeek).every((step) => step === 1)).toBe(true);
    // The last frame's tone is cut by the decoder delay, so it is not in `indices`.
    expect(audioOf(sink).length - sentBeforeSeek).toBe(100);
  });

  it('sends every frame once and in order across a skip to the next track', async () => {
    const { sink, player } = newPlayer();
    player.play(fileTrack('frame-index.wav', 4));
    await vi.waitFor(() => expect(audioOf(sink).length).toBeGreaterThan(30), { timeout: 10_000 });
    const sentBeforeSkip = audioOf(sink).length;
    const ended = trackEnd(player);
    player.play(fileTrack('frame-index.wav', 4));
    expect(await ended).toEqual({ reason: 'stopped' });
    expect(await trackEnd(player)).toEqual({ reason: 'finished' });
    player.destroy();
    const indices = frameIndices(decodeToMono(audioOf(sink)));
    expect(indices.slice(0, sentBeforeSkip)).toEqual(
      indices.slice(0, sentBeforeSkip).map((_, i) => i % INDEX_TONES),
    );
    const next = indices.slice(sentBeforeSkip);
    expect(next[0]).toBe(0);
    expect(steps(next).every((step) => step === 1)).toBe(true);
    expect(audioOf(sink).length - sentBeforeSkip).toBe(200);
  });

  it('sends silence while its decoder is starved, then carries on with every frame', async () => {
    const { sink, player } = newPlayer();
    const source = new PassThrough();
    const pcmFrames = (count: number) => Buffer.alloc(count * FRAME_BYTES, 0x11);
    const ended = trackEnd(player);
    player.play({
      input: { kind: 'stream', stream: source, rawFormat: { sampleRateHz: 48_000, channels: 2 } },
    });
    source.write(pcmFrames(100));
    // What ffmpeg has let out is played; then its input runs dry and the clock goes on with silence.
    await vi.waitFor(() => expect(player.frameHealth.total.missed).toBeGreaterThan(5), { timeout: 10_000 });
    expect(player.state.status).toBe('playing');
    const sentWhileStarved = sink.voiceFrames.length;
    await vi.waitFor(() => expect(sink.voiceFrames.length).toBeGreaterThan(sentWhileStarved + 5), {
      timeout: 5000,
    });
    expect(sink.voiceFrames.slice(sentWhileStarved).every(isSilenceFrame)).toBe(true);
    source.end(pcmFrames(50));
    expect(await ended).toEqual({ reason: 'finished' });
    expect(audioOf(sink).length).toBe(150);
    expect(player.frameHealth.total.sent).toBe(150);
    player.destroy();
  });
});
