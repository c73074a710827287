/**
 * One bot's audio player: decoder → PCM buffer → gain → Opus encoder → VoiceSink, driven by the shared
 * frame scheduler. Every state change goes through `setState`, which also decides whether the player
 * needs the clock (it does while playing, and while a pause is still sending its silence tail).
 *
 * Underrun policy (see playback-policy.ts): a missing frame is sent as Opus silence and counted; once
 * the decoder has reached the end, 5 such frames in a row end the track. Pause sends 5 silence frames,
 * then `endVoice()`. Stop kills the decoder and calls `endVoice()` (once: not again after a pause's).
 *
 * Position is counted, not timed: `elapsedSeconds` = audio frames sent × 20 ms + the seek offset,
 * clamped to the track's duration, so it stays right through underruns, pauses and stalls.
 */
import { EventEmitter } from 'node:events';
import type { Result } from '../../shared/result';
import type { AudioPlayerState, Playback, Track, TrackEnd } from './audio-player-state';
import { Decoder } from './decoder';
import { OpusEncoder } from './encoder';
import { locateFfmpeg } from './ffmpeg-locator';
import { FrameHealth, type FrameHealthSnapshot } from './frame-health';
import { type FrameScheduler, type FrameTick, frameScheduler, type ScheduledPlayer } from './frame-scheduler';
import { Gain } from './gain';
import { OPUS_SILENCE_FRAME } from './opus-silence-frame';
import { FRAME_SECONDS, SAMPLES_PER_FRAME } from './pcm-format';
import { DEFAULT_PLAYBACK_POLICY, type PlaybackPolicy } from './playback-policy';
import { SpawnFailureTracker } from './spawn-failure-tracker';
import type { VoiceSink } from './voice-sink';

export interface VoiceDucking {
  enabled: boolean;
  /** The music's volume while someone else talks, as a percentage of the set volume. */
  volumePercent: number;
}

export interface AudioPlayerEvents {
  stateChange: [from: AudioPlayerState, to: AudioPlayerState];
  /** The first audio of a track is about to be sent (not repeated after a seek). */
  trackStart: [Track];
  trackEnd: [Track, TrackEnd];
  /** Something beyond one track went wrong; only emitted when someone listens. */
  error: [Error];
}

export interface AudioPlayerOptions {
  sink: VoiceSink;
  scheduler?: FrameScheduler;
  volumePercent?: number;
  voiceDucking?: VoiceDucking;
  policy?: PlaybackPolicy;
  locateFfmpeg?: () => Result<string>;
}

/** What the next dispatch sends: real audio, or silence for an underrun or a pause tail. */
type PreparedFrame = { kind: 'audio' | 'underrun' | 'pauseTail'; opus: Uint8Array };

export class AudioPlayer extends EventEmitter<AudioPlayerEvents> implements ScheduledPlayer {
  private currentState: AudioPlayerState = { status: 'idle' };
  private prepared: PreparedFrame | undefined;
  private readonly sink: VoiceSink;
  private readonly scheduler: FrameScheduler;
  private readonly policy: PlaybackPolicy;
  private readonly findFfmpeg: () => Result<string>;
  private readonly gain: Gain;
  private readonly encoder = new OpusEncoder();
  /** Reused for every frame; gain and the encoder are done with it before the next is read. */
  private readonly pcmFrame = new Int16Array(SAMPLES_PER_FRAME);
  private readonly health = new FrameHealth();
  private readonly spawnFailures = new SpawnFailureTracker();
  private ducking: VoiceDucking;
  private othersTalking = false;
  /** Whether the sink has had voice since its last `endVoice()`, so the end marker goes out once. */
  private talking = false;

  constructor(options: AudioPlayerOptions) {
    super();
    this.sink = options.sink;
    this.scheduler = options.scheduler ?? frameScheduler;
    this.policy = options.policy ?? DEFAULT_PLAYBACK_POLICY;
    this.findFfmpeg = options.locateFfmpeg ?? locateFfmpeg;
    this.gain = new Gain(options.volumePercent === undefined ? {} : { volumePercent: options.volumePercent });
    this.ducking = options.voiceDucking ?? { enabled: false, volumePercent: 100 };
  }

  get state(): AudioPlayerState {
    return this.currentState;
  }

  get volume(): number {
    return this.gain.volume;
  }

  get elapsedSeconds(): number {
    if (this.currentState.status === 'idle') return 0;
    const { framesSent, seekOffsetSeconds, track } = this.currentState.playback;
    const elapsedSeconds = framesSent * FRAME_SECONDS + seekOffsetSeconds;
    return track.durationSeconds === undefined
      ? elapsedSeconds
      : Math.min(elapsedSeconds, track.durationSeconds);
  }

  get frameHealth(): FrameHealthSnapshot {
    return this.health.snapshot();
  }

  /** Starts a track, ending the current one (reason `stopped`) first. */
  play(track: Track): void {
    this.stop();
    const ffmpeg = this.findFfmpeg();
    if (!ffmpeg.ok) {
      this.failToStart(track, ffmpeg.error);
      return;
    }
    const playback: Playback = {
      track,
      decoder: this.startDecoder(ffmpeg.value, track, 0),
      seekOffsetSeconds: 0,
      framesSent: 0,
      started: false,
    };
    this.setState({ status: 'buffering', playback });
  }

  /** Restarts the pipeline at `positionSeconds`; a paused player stays paused. False when idle. */
  seek(positionSeconds: number): boolean {
    const state = this.currentState;
    if (state.status === 'idle') return false;
    const { track } = state.playback;
    const seekOffsetSeconds = Math.max(
      0,
      Math.min(positionSeconds, track.durationSeconds ?? Number.POSITIVE_INFINITY),
    );
    const ffmpeg = this.findFfmpeg();
    if (!ffmpeg.ok) {
      this.endTrack(this.spawnFailureEnd(ffmpeg.error));
      return true;
    }
    state.playback.decoder.kill();
    const playback: Playback = {
      ...state.playback,
      decoder: this.startDecoder(ffmpeg.value, track, seekOffsetSeconds),
      seekOffsetSeconds,
      framesSent: 0,
    };
    this.setState(state.status === 'paused' ? { ...state, playback } : { status: 'buffering', playback });
    return true;
  }

  /** False when there is nothing to pause. */
  pause(): boolean {
    const state = this.currentState;
    if (state.status !== 'playing' && state.status !== 'buffering') return false;
    this.setState({
      status: 'paused',
      playback: state.playback,
      silenceFramesLeft: this.policy.pauseSilenceFrames,
    });
    return true;
  }

  /** False when not paused. */
  resume(): boolean {
    const state = this.currentState;
    if (state.status !== 'paused') return false;
    if (this.hasPrebuffered(state.playback)) this.startPlaying(state.playback);
    else this.setState({ status: 'buffering', playback: state.playback });
    return true;
  }

  /** Ends the current track (reason `stopped`) and stops talking. False when idle. */
  stop(): boolean {
    if (this.currentState.status === 'idle') return false;
    this.endTrack({ reason: 'stopped' });
    return true;
  }

  setVolume(volumePercent: number): void {
    this.gain.setVolume(volumePercent);
  }

  setVoiceDucking(ducking: VoiceDucking): void {
    this.ducking = ducking;
    this.applyDucking();
  }

  /** Whether someone other than this bot is talking in its channel (drives ducking). */
  setOthersTalking(talking: boolean): void {
    this.othersTalking = talking;
    this.applyDucking();
  }

  /** Stops playback and frees the encoder. The player cannot be used afterwards. */
  destroy(): void {
    this.stop();
    this.scheduler.remove(this);
    this.encoder.destroy();
    this.removeAllListeners();
  }

  /** @internal Scheduler step: send what `prepare` made ready. */
  dispatch(tick: FrameTick): void {
    const state = this.currentState;
    if (tick.droppedTicks > 0 && state.status === 'playing') this.health.recordMissed(tick.droppedTicks);
    const frame = this.prepared;
    this.prepared = undefined;
    if (!frame || state.status === 'idle' || state.status === 'buffering') return;
    this.sink.sendVoice(frame.opus);
    this.talking = true;
    if (frame.kind === 'audio') {
      state.playback.framesSent++;
      this.health.recordSent(tick.latenessMs);
    } else if (frame.kind === 'underrun' && !state.playback.decoder.pcm.hasEnded) {
      // Padding after the end is expected; only a starved running decoder is a health miss.
      this.health.recordMissed();
    }
    if (state.status === 'paused' && frame.kind === 'pauseTail') {
      state.silenceFramesLeft--;
      if (state.silenceFramesLeft === 0) {
        this.endVoice();
        this.scheduler.remove(this);
      }
    }
  }

  /** @internal Scheduler step: make the next frame ready. */
  prepare(): void {
    const state = this.currentState;
    if (state.status === 'paused') {
      this.prepared =
        state.silenceFramesLeft > 0 ? { kind: 'pauseTail', opus: OPUS_SILENCE_FRAME } : undefined;
      return;
    }
    if (state.status !== 'playing') return;
    const { pcm } = state.playback.decoder;
    const pcmFrame = pcm.readFrame(this.pcmFrame);
    if (pcmFrame) {
      state.missesAfterEnd = 0;
      this.gain.apply(pcmFrame);
      this.prepared = { kind: 'audio', opus: this.encoder.encode(pcmFrame) };
      return;
    }
    if (pcm.exhausted) {
      if (state.missesAfterEnd >= this.policy.maxMissedFramesAfterEnd) {
        this.finishTrack(state.playback);
        return;
      }
      state.missesAfterEnd++;
    }
    this.prepared = { kind: 'underrun', opus: OPUS_SILENCE_FRAME };
  }

  private startDecoder(ffmpegPath: string, track: Track, seekSeconds: number): Decoder {
    const decoder = new Decoder({
      ffmpegPath,
      input: track.input,
      seekSeconds,
      ...(track.stopAtSeconds === undefined ? {} : { stopAtSeconds: track.stopAtSeconds }),
    });
    const isCurrent = () =>
      this.currentState.status !== 'idle' && this.currentState.playback.decoder === decoder;
    decoder.on('spawn', () => this.spawnFailures.recordSuccess());
    decoder.on('data', () => {
      if (isCurrent() && this.currentState.status === 'buffering') this.leaveBufferingWhenReady(decoder);
    });
    decoder.on('exit', (exit) => {
      if (!isCurrent() || exit.kind === 'killed') return;
      if (exit.kind === 'failed' && exit.spawnFailed) this.endTrack(this.spawnFailureEnd(exit.message));
      else if (this.currentState.status === 'buffering') this.leaveBufferingWhenReady(decoder);
    });
    return decoder;
  }

  private leaveBufferingWhenReady(decoder: Decoder): void {
    const state = this.currentState;
    if (state.status !== 'buffering') return;
    const { pcm, exit } = decoder;
    // A pipeline that failed before producing a sample has nothing to play: report it at once.
    if (exit?.kind === 'failed' && pcm.exhausted) {
      this.endTrack({ reason: 'error', message: exit.message, stopPlayback: false });
      return;
    }
    if (this.hasPrebuffered(state.playback)) this.startPlaying(state.playback);
  }

  private hasPrebuffered(playback: Playback): boolean {
    const { pcm } = playback.decoder;
    return pcm.framesAvailable >= this.policy.prebufferFrames || pcm.hasEnded;
  }

  private startPlaying(playback: Playback): void {
    const firstStart = !playback.started;
    playback.started = true;
    this.setState({ status: 'playing', playback, missesAfterEnd: 0 });
    if (firstStart) this.emit('trackStart', playback.track);
  }

  private finishTrack(playback: Playback): void {
    const exit = playback.decoder.exit;
    this.endTrack(
      exit?.kind === 'failed'
        ? { reason: 'error', message: exit.message, stopPlayback: false }
        : { reason: 'finished' },
    );
  }

  private endTrack(end: TrackEnd): void {
    const state = this.currentState;
    if (state.status === 'idle') return;
    state.playback.decoder.kill();
    this.endVoice();
    this.setState({ status: 'idle' });
    this.emit('trackEnd', state.playback.track, end);
  }

  /** A track that never got a pipeline (no ffmpeg) still ends, so the queue can decide what is next. */
  private failToStart(track: Track, message: string): void {
    this.emit('trackEnd', track, this.spawnFailureEnd(message));
  }

  private spawnFailureEnd(message: string): TrackEnd {
    const stopPlayback = this.spawnFailures.recordFailure();
    if (stopPlayback) {
      this.reportError(
        new Error(`ffmpeg failed to start ${this.spawnFailures.limit} times in a row; playback stopped`),
      );
    }
    return { reason: 'error', message, stopPlayback };
  }

  private setState(next: AudioPlayerState): void {
    const previous = this.currentState;
    this.currentState = next;
    // A frame prepared for the old state (or the old pipeline) must not leak into the new one.
    if (
      previous.status !== next.status ||
      (previous.status !== 'idle' && next.status !== 'idle' && previous.playback !== next.playback)
    ) {
      this.prepared = undefined;
    }
    const needsClock = next.status === 'playing' || (next.status === 'paused' && next.silenceFramesLeft > 0);
    if (needsClock) this.scheduler.add(this);
    else this.scheduler.remove(this);
    this.emit('stateChange', previous, next);
  }

  private endVoice(): void {
    if (!this.talking) return;
    this.talking = false;
    this.sink.endVoice();
  }

  private applyDucking(): void {
    if (this.ducking.enabled && this.othersTalking) this.gain.duck(this.ducking.volumePercent);
    else this.gain.unduck();
  }

  private reportError(error: Error): void {
    // EventEmitter throws on an unheard 'error'; a player problem must not crash the daemon.
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }
}
