import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { err, ok } from '../../shared/result';
import {
  CollectingSink,
  decodeToMono,
  estimateFrequencyHz,
  FFMPEG,
  isSilenceFrame,
  renderTestFiles,
  rms,
  type TempDir,
  toDb,
  tonePower,
} from '../../testkit/audio-signals';
import { AudioPlayer } from './audio-player';
import type { TrackEnd } from './audio-player-state';
import { FrameScheduler } from './clock/frame-scheduler';
import { FFMPEG_NOT_FOUND, locateFfmpeg } from './decode/ffmpeg-locator';
import { volumeToAmplitude } from './encode/gain';
import type { Track } from './track';
import type { PreparedVoice } from './voice-sink';

let dir: TempDir;
beforeAll(() => {
  dir = renderTestFiles();
});
afterAll(() => dir.remove());

const fileTrack = (name: string, durationSeconds?: number): Track => ({
  input: { kind: 'file', path: dir.file(name) },
  ...(durationSeconds === undefined ? {} : { durationSeconds }),
});

const nextTrackEnd = async (player: AudioPlayer): Promise<TrackEnd> =>
  ((await once(player, 'trackEnd')) as [Track, TrackEnd])[1];

/** A packet as the building sink below makes it: a copy of the frame it was built for. */
interface BuiltPacket {
  opus: Uint8Array;
}

/**
 * A sink that builds packets as the TS3 one does, and counts where that happens: `inTick` is set by
 * the test around the player's dispatch, so a build inside the 20 ms tick is seen.
 */
class BuildingSink extends CollectingSink {
  inTick = false;
  builtInTick = 0;
  builtAhead = 0;
  /** Silence built ahead: the prepare step's guess that the next tick has no music to send. */
  silenceGuesses = 0;
  sentAsBuilt = 0;
  /** Sent on the tick with no packet built for it, so the sink would have to build it there. */
  sentUnbuilt = 0;
  /** Sent with a packet built for other bytes: must never happen. */
  sentWithWrongPacket = 0;
  /** Per voice frame sent, in order: whether it came with the packet built for it. */
  readonly sentBuilt: boolean[] = [];

  prepareVoice(opusFrame: Uint8Array): PreparedVoice {
    if (this.inTick) this.builtInTick++;
    else this.builtAhead++;
    if (isSilenceFrame(opusFrame)) this.silenceGuesses++;
    return { opus: opusFrame.slice() } satisfies BuiltPacket;
  }

  override sendVoice(opusFrame: Uint8Array, prepared?: PreparedVoice): void {
    super.sendVoice(opusFrame);
    this.sentBuilt.push(prepared !== undefined);
    if (!prepared) this.sentUnbuilt++;
    else if (Buffer.from((prepared as BuiltPacket).opus).equals(opusFrame)) this.sentAsBuilt++;
    else this.sentWithWrongPacket++;
  }
}

describe('AudioPlayer: the tick only sends', () => {
  it('builds every packet between ticks, for the frame the tick then sends, through a pause', async () => {
    const sink = new BuildingSink();
    const player = new AudioPlayer({ sink, scheduler: new FrameScheduler(), locateFfmpeg: () => ok(FFMPEG) });
    const dispatch = player.dispatch.bind(player);
    player.dispatch = (tick) => {
      sink.inTick = true;
      try {
        dispatch(tick);
      } finally {
        sink.inTick = false;
      }
    };
    player.play(fileTrack('long.wav', 20));
    await once(player, 'trackStart');
    await vi.waitFor(() => expect(sink.voiceFrames.length).toBeGreaterThan(25), { timeout: 10_000 });
    player.pause();
    const pausedAt = sink.voiceFrames.length;
    await vi.waitFor(() => expect(sink.events.at(-1)).toEqual({ kind: 'end' }), { timeout: 2000 });
    // The pause's silence was built as soon as the pause came, not on the tick.
    expect(sink.sentBuilt.slice(pausedAt)).toEqual([true, true, true, true, true]);
    player.resume();
    const resumedAt = sink.voiceFrames.length;
    await vi.waitFor(() => expect(sink.voiceFrames.length).toBeGreaterThan(resumedAt + 25), {
      timeout: 10_000,
    });
    player.destroy();

    expect(sink.builtInTick).toBe(0);
    expect(sink.sentWithWrongPacket).toBe(0);
    // A frame goes out unbuilt only when it reached the ring after the prepare step found it empty
    // (and guessed silence): none at all on a machine that keeps up.
    expect(sink.sentUnbuilt).toBeLessThanOrEqual(sink.silenceGuesses);
    expect(sink.sentAsBuilt + sink.sentUnbuilt).toBe(sink.voiceFrames.length);
    expect(sink.sentAsBuilt).toBeGreaterThan(50);
  });
});

describe('AudioPlayer', () => {
  function newPlayer(
    options: { volumePercent?: number; locate?: () => ReturnType<typeof locateFfmpeg> } = {},
  ) {
    const sink = new CollectingSink();
    const player = new AudioPlayer({
      sink,
      scheduler: new FrameScheduler(),
      locateFfmpeg: options.locate ?? (() => ok(FFMPEG)),
      ...(options.volumePercent === undefined ? {} : { volumePercent: options.volumePercent }),
    });
    return { sink, player };
  }

  it('plays a tone file into the sink: right frequency, right length, padded with silence', async () => {
    const { sink, player } = newPlayer();
    const started = vi.fn();
    player.on('trackStart', started);
    const ended = nextTrackEnd(player);
    player.play(fileTrack('tone.wav', 1));
    expect(player.state.status).toBe('buffering');
    expect(await ended).toEqual({ reason: 'finished' });
    expect(started).toHaveBeenCalledTimes(1);
    const frames = sink.voiceFrames;
    const audio = frames.filter((frame) => !isSilenceFrame(frame));
    expect(audio.length).toBe(50);
    expect(frames.slice(-5).every(isSilenceFrame)).toBe(true);
    expect(sink.events.at(-1)).toEqual({ kind: 'end' });
    const mono = decodeToMono(audio);
    expect(mono.length / 48_000).toBeCloseTo(1, 1);
    expect(estimateFrequencyHz(mono.subarray(2400))).toBeCloseTo(440, 0);
    expect(player.state.status).toBe('idle');
    expect(player.frameHealth.total.sent).toBe(50);
    player.destroy();
  });

  it('stops a preview at its length even when the stream is longer', async () => {
    const { sink, player } = newPlayer();
    const ended = nextTrackEnd(player);
    player.play({
      input: { kind: 'file', path: dir.file('two-tones.flac') },
      durationSeconds: 1,
      stopAtSeconds: 1,
    });
    expect(await ended).toEqual({ reason: 'finished' });
    const audio = sink.voiceFrames.filter((frame) => !isSilenceFrame(frame));
    expect(audio.length).toBeGreaterThanOrEqual(49);
    expect(audio.length).toBeLessThanOrEqual(51);
    player.destroy();
  });

  it('seeks to 3 s of a file whose tone changes at 3 s and plays the second tone', async () => {
    const { sink, player } = newPlayer();
    player.play(fileTrack('two-tones.flac', 4));
    await once(player, 'trackStart');
    const sentBeforeSeek = sink.voiceFrames.length;
    expect(player.seek(3)).toBe(true);
    expect(player.elapsedSeconds).toBe(3);
    expect(await nextTrackEnd(player)).toEqual({ reason: 'finished' });
    const afterSeek = sink.voiceFrames.slice(sentBeforeSeek).filter((frame) => !isSilenceFrame(frame));
    const mono = decodeToMono(afterSeek).subarray(4800);
    expect(tonePower(mono, 880)).toBeGreaterThan(100 * tonePower(mono, 440));
    expect(afterSeek.length).toBeGreaterThanOrEqual(48);
    expect(afterSeek.length).toBeLessThanOrEqual(52);
    player.destroy();
  });

  it('at volume 50 plays at the amplitude the curve documents (0.25, −12 dB) within 1 dB', async () => {
    const { sink, player } = newPlayer({ volumePercent: 50 });
    const ended = nextTrackEnd(player);
    player.play(fileTrack('tone.wav', 1));
    await ended;
    const mono = decodeToMono(sink.voiceFrames.filter((frame) => !isSilenceFrame(frame))).subarray(
      4800,
      43_200,
    );
    const expectedRms = (0.5 * volumeToAmplitude(50)) / Math.SQRT2;
    expect(Math.abs(toDb(rms(mono) / expectedRms))).toBeLessThan(1);
    player.destroy();
  });

  it('counts elapsed from frames sent plus the seek offset, clamped to the duration', async () => {
    const { player } = newPlayer();
    player.play(fileTrack('long.wav', 10));
    await once(player, 'trackStart');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Frames, not wall time: 500 ms is at most ~25 frames, fewer when this busy machine stalls.
    expect(player.elapsedSeconds).toBeGreaterThan(0.2);
    expect(player.elapsedSeconds).toBeLessThanOrEqual(0.6);
    expect(player.seek(9.9)).toBe(true);
    await vi.waitFor(() => expect(player.elapsedSeconds).toBe(10), { timeout: 5000 });
    player.destroy();
  });

  it('on pause sends 5 silence frames then ends voice; resume carries on', async () => {
    const { sink, player } = newPlayer();
    player.play(fileTrack('long.wav', 20));
    await once(player, 'trackStart');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(player.pause()).toBe(true);
    expect(player.pause()).toBe(false);
    const pausedAt = sink.events.length;
    await vi.waitFor(() => expect(sink.events.at(-1)).toEqual({ kind: 'end' }), { timeout: 2000 });
    const tail = sink.events.slice(pausedAt);
    expect(tail.length).toBe(6);
    expect(tail.slice(0, 5).every((event) => event.kind === 'voice' && isSilenceFrame(event.frame))).toBe(
      true,
    );
    const elapsedWhilePaused = player.elapsedSeconds;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sink.events.length).toBe(pausedAt + 6);
    expect(player.elapsedSeconds).toBe(elapsedWhilePaused);
    expect(player.resume()).toBe(true);
    await vi.waitFor(() => expect(player.elapsedSeconds).toBeGreaterThan(elapsedWhilePaused + 0.1), {
      timeout: 2000,
    });
    player.destroy();
  });

  it('stop while paused and quiet sends no second end of voice', async () => {
    const { sink, player } = newPlayer();
    player.play(fileTrack('long.wav', 20));
    await once(player, 'trackStart');
    player.pause();
    await vi.waitFor(() => expect(sink.events.at(-1)).toEqual({ kind: 'end' }), { timeout: 2000 });
    const ended = nextTrackEnd(player);
    player.stop();
    expect(await ended).toEqual({ reason: 'stopped' });
    expect(sink.events.filter((event) => event.kind === 'end').length).toBe(1);
    player.destroy();
  });

  it('stop ends voice, kills the decoder and ends the track as stopped', async () => {
    const { sink, player } = newPlayer();
    player.play(fileTrack('long.wav', 20));
    await vi.waitFor(() => expect(sink.voiceFrames.length).toBeGreaterThan(0), { timeout: 5000 });
    const state = player.state;
    const ended = nextTrackEnd(player);
    expect(player.stop()).toBe(true);
    expect(await ended).toEqual({ reason: 'stopped' });
    expect(sink.events.at(-1)).toEqual({ kind: 'end' });
    if (state.status !== 'idle') expect(state.playback.pipeline.exit).toEqual({ kind: 'killed' });
    expect(player.stop()).toBe(false);
    expect(player.elapsedSeconds).toBe(0);
    player.destroy();
  });

  it('ends a corrupt file with reason error and ffmpeg’s readable message', async () => {
    const { player } = newPlayer();
    const ended = nextTrackEnd(player);
    player.play(fileTrack('corrupt.mp3'));
    const end = await ended;
    expect(end).toMatchObject({ reason: 'error', stopPlayback: false });
    // ffmpeg's own words, e.g. "…/corrupt.mp3: Invalid argument ([mp3] Failed to read frame size: …)".
    if (end.reason === 'error') expect(end.message).toMatch(/^ffmpeg failed: .*corrupt\.mp3: \w.+/);
    expect(player.state.status).toBe('idle');
    player.destroy();
  });

  it('ends the track with the clear error when FFMPEG_PATH points at nothing', async () => {
    const { player } = newPlayer({
      locate: () => locateFfmpeg({ configuredPath: '/nonexistent/ffmpeg', searchPath: '/usr/bin' }),
    });
    const ended = nextTrackEnd(player);
    player.play(fileTrack('tone.wav'));
    const end = await ended;
    expect(end.reason).toBe('error');
    if (end.reason === 'error') expect(end.message).toContain(FFMPEG_NOT_FOUND);
    player.destroy();
  });

  it('asks to stop playback after 3 consecutive spawn failures', async () => {
    const { player } = newPlayer({ locate: () => ok('/nonexistent/ffmpeg') });
    const errors = vi.fn();
    player.on('error', errors);
    const ends: TrackEnd[] = [];
    // A plain listener: events.once() would reject on the 'error' emitted beside the third trackEnd.
    player.on('trackEnd', (_track, end) => ends.push(end));
    for (let attempt = 1; attempt <= 3; attempt++) {
      player.play(fileTrack('tone.wav'));
      await vi.waitFor(() => expect(ends.length).toBe(attempt));
    }
    expect(ends.map((end) => end.reason === 'error' && end.stopPlayback)).toEqual([false, false, true]);
    expect(errors).toHaveBeenCalledTimes(1);
    player.destroy();
  });

  it('counts a missing ffmpeg as a spawn failure too', async () => {
    const { player } = newPlayer({ locate: () => err(FFMPEG_NOT_FOUND) });
    const ends: TrackEnd[] = [];
    player.on('trackEnd', (_track, end) => ends.push(end));
    for (let attempt = 0; attempt < 3; attempt++) player.play(fileTrack('tone.wav'));
    expect(ends.map((end) => end.reason === 'error' && end.stopPlayback)).toEqual([false, false, true]);
    player.destroy();
  });
});
