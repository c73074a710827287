/**
 * One bot's audio player: a track's pipeline (ffmpeg → PCM → gain → Opus, run by the worker engine,
 * see track-pipeline.ts) → VoiceSink, driven by the shared frame scheduler. The player owns what is
 * sent when: state, position, frame health, and the underrun, end and pause policies. Every
 * state change goes through `setState`, which also decides whether the player needs the clock (it does
 * while playing, and while a pause is still sending its silence tail).
 *
 * Underrun policy (see playback-policy.ts): a missing frame is sent as Opus silence and counted; once
 * the decoder has reached the end, 5 such frames in a row end the track. Pause sends 5 silence frames,
 * then `endVoice()`. Stop kills the decoder and calls `endVoice()` (once: not again after a pause's).
 *
 * The tick only sends: between ticks (`prepare`) the player has the sink build the packet of what the
 * next tick will most likely send, the pipeline's next frame or silence, and the tick hands it back with
 * that frame. A state change between ticks builds it again (a pause: silence); a guess that turns out
 * wrong (a frame that arrived just after an underrun) is built on the tick, as is the end-of-voice
 * marker that closes a talk burst.
 *
 * The next track may be queued behind the current one (`queueNext`, once the player has said the current
 * one is near its end): it decodes ahead, and its first frame follows the current one's last in the same
 * tick (gapless), or starts under its last seconds with a crossfade (`setCrossfade`), mixed on the
 * worker. The player then emits `trackJoined` instead of `trackEnd`, and `trackStart` for the next.
 * Anything that replaces the current track (play, seek, stop) drops the queued one.
 *
 * Position is counted, not timed: `elapsedSeconds` = audio frames sent × 20 ms + the seek offset,
 * clamped to the track's duration, so it stays right through underruns, pauses and stalls.
 *
 * daemon/audio holds the player and what it shares with the daemon (track, voice sink, policy, PCM
 * format); the stages below it have a folder each: engine/ (the worker pool, the worker's pipelines and
 * the frame ring between the threads), decode/ (ffmpeg and its PCM), encode/ (gain and Opus), relay/
 * (the loopback relay that fetches a stream for ffmpeg through the guard) and clock/ (the 20 ms frame
 * scheduler and its health counts).
 */
import { EventEmitter } from 'node:events';
import { CROSSFADE_SECONDS_RANGE } from '../../shared/domain/constants';
import type { Result } from '../../shared/result';
import type { AudioPlayerState, Playback, TrackEnd } from './audio-player-state';
import { FrameHealth, type FrameHealthSnapshot } from './clock/frame-health';
import {
  type FrameScheduler,
  type FrameTick,
  frameScheduler,
  type ScheduledPlayer,
} from './clock/frame-scheduler';
import type { DecoderExit } from './decode/decoder';
import type { OpusEncoderOptions } from './encode/encoder';
import { OPUS_SILENCE_FRAME } from './encode/opus-silence-frame';
import type { AudioWorkerPool } from './engine/audio-worker-pool';
import type {
  LoudnessReport,
  PipelineFrame,
  PlayerEngine,
  QueuePlan,
  TrackPipeline,
} from './engine/track-pipeline';
import { WorkerEngine } from './engine/worker-engine';
import { FRAME_SECONDS } from './pcm-format';
import { DEFAULT_PLAYBACK_POLICY, type PlaybackPolicy } from './playback-policy';
import { SpawnFailureTracker } from './spawn-failure-tracker';
import type { Track } from './track';
import type { PreparedVoice, VoiceSink } from './voice-sink';

/**
 * How long before a track's end the player says it is near its end (plus the crossfade): time for the
 * next song's stream to be resolved and its decoder to buffer, short enough that a signed stream
 * address fetched then has not expired when it plays.
 */
export const JOIN_LEAD_SECONDS = 10;

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
  /** The track ended (how: `end`) and the one queued behind it plays on without a gap. */
  trackJoined: [ended: Track, end: TrackEnd, next: Track];
  /** The track is within JOIN_LEAD_SECONDS (and the crossfade) of its end: time to queue the next. */
  nearEnd: [Track];
  /** The track (a user's live stream) named what plays now: its new ICY StreamTitle. */
  streamTitle: [Track, string];
  /** Something beyond one track went wrong; only emitted when someone listens. */
  error: [Error];
}

export interface AudioPlayerOptions {
  sink: VoiceSink;
  scheduler?: FrameScheduler;
  volumePercent?: number;
  voiceDucking?: VoiceDucking;
  policy?: PlaybackPolicy;
  /** Finds ffmpeg when a track starts (the configured FFMPEG_PATH, else the usual places). */
  locateFfmpeg: () => Result<string>;
  /** The worker pool to run on (the process-wide one by default). */
  workerPool?: AudioWorkerPool;
  /** Encoded frames the worker keeps ready (DEFAULT_LOOKAHEAD_FRAMES by default). */
  lookaheadFrames?: number;
  encoder?: OpusEncoderOptions;
  /** The loudness each track is brought to (LUFS); absent: tracks play as they are. */
  loudnessTargetLufs?: number;
}

export class AudioPlayer extends EventEmitter<AudioPlayerEvents> implements ScheduledPlayer {
  private currentState: AudioPlayerState = { status: 'idle' };
  private readonly sink: VoiceSink;
  private readonly scheduler: FrameScheduler;
  private readonly policy: PlaybackPolicy;
  private readonly findFfmpeg: () => Result<string>;
  private readonly engine: PlayerEngine;
  private readonly health = new FrameHealth();
  private readonly spawnFailures = new SpawnFailureTracker();
  private ducking: VoiceDucking;
  private othersTalking = false;
  /** Whether the sink has had voice since its last `endVoice()`, so the end marker goes out once. */
  private talking = false;
  /** Whether the player is subscribed to the scheduler. */
  private onClock = false;
  /** The packet built for the next tick, and the frame it holds (an AudioFrame, or OPUS_SILENCE_FRAME). */
  private prepared: { frame: object; voice: PreparedVoice } | undefined;
  private loudnessTarget: number | undefined;
  /** The current track's loudness normalization, once its worker has reported it. */
  private loudnessReport: LoudnessReport | undefined;
  private crossfadeSeconds = 0;
  /** The next track, queued behind the current one. */
  private queued: { track: Track; pipeline: TrackPipeline } | undefined;

  constructor(options: AudioPlayerOptions) {
    super();
    this.sink = options.sink;
    this.scheduler = options.scheduler ?? frameScheduler;
    this.policy = options.policy ?? DEFAULT_PLAYBACK_POLICY;
    this.findFfmpeg = options.locateFfmpeg;
    this.engine = new WorkerEngine({
      ...(options.volumePercent === undefined ? {} : { volumePercent: options.volumePercent }),
      ...(options.encoder ? { encoder: options.encoder } : {}),
      ...(options.workerPool ? { pool: options.workerPool } : {}),
      ...(options.lookaheadFrames === undefined ? {} : { lookaheadFrames: options.lookaheadFrames }),
    });
    this.ducking = options.voiceDucking ?? { enabled: false, volumePercent: 100 };
    this.loudnessTarget = options.loudnessTargetLufs;
  }

  /** The current track's normalization gain and its figure's source; undefined while off or not known yet. */
  get loudness(): LoudnessReport | undefined {
    return this.currentState.status === 'idle' ? undefined : this.loudnessReport;
  }

  /** A new target (undefined: off), heard at once: the song playing follows it too. */
  setLoudnessTarget(targetLufs: number | undefined): void {
    if (targetLufs === this.loudnessTarget) return;
    this.loudnessTarget = targetLufs;
    this.loudnessReport = undefined;
    this.engine.setLoudnessTarget(targetLufs);
  }

  /** The crossfade between tracks from the next one queued on (0: they join without a gap). */
  setCrossfade(seconds: number): void {
    const { min, max } = CROSSFADE_SECONDS_RANGE;
    this.crossfadeSeconds = Math.max(min, Math.min(max, seconds));
  }

  get state(): AudioPlayerState {
    return this.currentState;
  }

  /**
   * Queues `track` behind the current one, to follow it without a gap, or, when `crossfade` is
   * allowed (neither is a live stream) and both last at least twice the crossfade, faded into it.
   * Replaces a track queued before. False when nothing plays or ffmpeg cannot be found.
   */
  queueNext(track: Track, crossfade: boolean): boolean {
    const state = this.currentState;
    if (state.status === 'idle') return false;
    const ffmpeg = this.findFfmpeg();
    if (!ffmpeg.ok) return false;
    const plan = this.joinPlan(state.playback, track, crossfade);
    const pipeline = this.startPipeline(ffmpeg.value, track, 0, plan);
    if (!pipeline) return false;
    this.queued = { track, pipeline };
    return true;
  }

  /** Drops the queued track, if any. */
  cancelNext(): void {
    this.queued = undefined;
    this.engine.cancelQueued();
  }

  get volume(): number {
    return this.engine.volume;
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
    this.loudnessReport = undefined;
    const ffmpeg = this.findFfmpeg();
    if (!ffmpeg.ok) {
      this.failToStart(track, ffmpeg.error);
      return;
    }
    const pipeline = this.startPipeline(ffmpeg.value, track, 0);
    if (!pipeline) return;
    const playback = this.newPlayback(track, pipeline, 0);
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
    this.cancelNext();
    state.playback.pipeline.kill();
    const pipeline = this.startPipeline(ffmpeg.value, track, seekOffsetSeconds);
    if (!pipeline) return true;
    const playback: Playback = {
      ...this.newPlayback(track, pipeline, seekOffsetSeconds),
      started: state.playback.started,
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
    if (state.playback.pipeline.ready) this.startPlaying(state.playback);
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
    this.engine.setVolume(volumePercent);
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

  /** Stops playback and frees the encoder (and its worker slot). The player cannot be used afterwards. */
  destroy(): void {
    this.stop();
    this.leaveClock();
    this.engine.destroy();
    this.removeAllListeners();
  }

  /**
   * @internal Scheduler step: send this tick's frame. A pipeline that has nothing ready is an underrun
   * (Opus silence, counted as missed), never a wait; after its end, silence pads the track out.
   */
  dispatch(tick: FrameTick): void {
    const state = this.currentState;
    if (state.status === 'paused') {
      if (state.silenceFramesLeft === 0) return;
      this.sendSilence();
      state.silenceFramesLeft--;
      if (state.silenceFramesLeft === 0) {
        this.endVoice();
        this.leaveClock();
      }
      return;
    }
    if (state.status !== 'playing') return;
    if (tick.droppedTicks > 0) this.health.recordMissed(tick.droppedTicks);
    const frame = state.playback.pipeline.takeFrame();
    if (frame.kind === 'joined') {
      // The next track's first frame goes out in this same tick: no gap between the two.
      const next = this.joinQueued(state.playback);
      if (next?.status === 'playing') this.sendFrom(next, tick, next.playback.pipeline.takeFrame());
      return;
    }
    this.sendFrom(state, tick, frame);
  }

  private sendFrom(
    state: Extract<AudioPlayerState, { status: 'playing' }>,
    tick: FrameTick,
    frame: PipelineFrame,
  ): void {
    const { playback } = state;
    if (frame.kind === 'audio') {
      state.missesAfterEnd = 0;
      this.send(frame.opus, frame);
      playback.framesSent++;
      this.health.recordSent(tick.latenessMs);
      if (playback.framesSent === playback.nearEndFrame) this.emit('nearEnd', playback.track);
      return;
    }
    if (frame.kind === 'starved') {
      this.sendSilence();
      this.health.recordMissed();
      return;
    }
    // Padding after the end is expected, not a health miss. The track is over once the padding is out
    // and the pipeline has said how its decoder ended.
    if (state.missesAfterEnd < this.policy.maxMissedFramesAfterEnd) {
      state.missesAfterEnd++;
      this.sendSilence();
    } else if (!playback.pipeline.exit) {
      this.sendSilence();
    }
    if (state.missesAfterEnd >= this.policy.maxMissedFramesAfterEnd && playback.pipeline.exit)
      this.finishTrack(playback);
  }

  /**
   * @internal Scheduler step, between ticks: has the sink build the packet the next tick most likely
   * sends, the pipeline's next frame (looked at, not taken) or silence.
   */
  prepare(): void {
    this.prepared = undefined;
    if (!this.sink.prepareVoice) return;
    const state = this.currentState;
    let frame: object;
    let opus: Uint8Array;
    if (state.status === 'playing') {
      const next = state.playback.pipeline.peekFrame();
      [frame, opus] = next.kind === 'audio' ? [next, next.opus] : [OPUS_SILENCE_FRAME, OPUS_SILENCE_FRAME];
    } else if (state.status === 'paused' && state.silenceFramesLeft > 0) {
      [frame, opus] = [OPUS_SILENCE_FRAME, OPUS_SILENCE_FRAME];
    } else return;
    const voice = this.sink.prepareVoice(opus);
    if (voice) this.prepared = { frame, voice };
  }

  /** Sends `opus` with the packet built for it ahead, when the one built is for this `frame`. */
  private send(opus: Uint8Array, frame: object): void {
    const prepared = this.prepared?.frame === frame ? this.prepared.voice : undefined;
    this.prepared = undefined;
    this.sink.sendVoice(opus, prepared);
    this.talking = true;
  }

  private sendSilence(): void {
    this.send(OPUS_SILENCE_FRAME, OPUS_SILENCE_FRAME);
  }

  /**
   * The frames the two tracks overlap and where the fade starts in the current pipeline's frames: by
   * the current track's known end, less the crossfade. No crossfade where either is a live stream, has
   * no known length, or lasts less than twice the crossfade: those join without a gap.
   */
  private joinPlan(playback: Playback, next: Track, crossfade: boolean): QueuePlan {
    const seconds = crossfade ? this.crossfadeSeconds : 0;
    const end = lengthOf(playback.track);
    const nextLength = lengthOf(next);
    if (
      seconds === 0 ||
      end === undefined ||
      nextLength === undefined ||
      Math.min(end, nextLength) < 2 * seconds
    )
      return { crossfadeFrames: 0, fadeAtSequence: 0 };
    return {
      crossfadeFrames: Math.round(seconds / FRAME_SECONDS),
      fadeAtSequence: Math.max(0, Math.round((end - playback.seekOffsetSeconds - seconds) / FRAME_SECONDS)),
    };
  }

  private newPlayback(track: Track, pipeline: TrackPipeline, seekOffsetSeconds: number): Playback {
    const end = lengthOf(track);
    const lead = JOIN_LEAD_SECONDS + this.crossfadeSeconds;
    return {
      track,
      pipeline,
      seekOffsetSeconds,
      framesSent: 0,
      started: false,
      // At least one frame in: `nearEnd` is said after a frame went out, even for a short track.
      nearEndFrame:
        end === undefined
          ? undefined
          : Math.max(1, Math.round((end - seekOffsetSeconds - lead) / FRAME_SECONDS)),
    };
  }

  /**
   * The queued track becomes the current one as the current one's last frame has gone out (or its
   * crossfade starts). A queue dropped after the worker had already joined ends the track here.
   */
  private joinQueued(ended: Playback): AudioPlayerState | undefined {
    const queued = this.queued;
    this.queued = undefined;
    const exit = ended.pipeline.exit;
    const end: TrackEnd =
      exit?.kind === 'failed' || exit?.kind === 'stalled' ? trackEndOf(exit) : { reason: 'finished' };
    const pipeline = queued && this.engine.join();
    if (!queued || pipeline !== queued.pipeline) {
      this.endTrack(end);
      return undefined;
    }
    this.loudnessReport = pipeline.loudness;
    this.emit('trackJoined', ended.track, end, queued.track);
    this.startPlaying(this.newPlayback(queued.track, pipeline, 0));
    return this.currentState;
  }

  /** The current track's pipeline, or (`plan`) the next one's, queued behind it. */
  private startPipeline(
    ffmpegPath: string,
    track: Track,
    seekSeconds: number,
    plan?: QueuePlan,
  ): TrackPipeline | undefined {
    const spec = {
      ffmpegPath,
      track,
      seekSeconds,
      prebufferFrames: this.policy.prebufferFrames,
      stallMs: this.policy.streamStallMs,
      ...(this.loudnessTarget === undefined ? {} : { loudnessTargetLufs: this.loudnessTarget }),
    };
    const pipeline = plan ? this.engine.queue(spec, plan) : this.engine.start(spec);
    if (!pipeline) return undefined;
    const isCurrent = () =>
      this.currentState.status !== 'idle' && this.currentState.playback.pipeline === pipeline;
    pipeline.on('spawn', () => this.spawnFailures.recordSuccess());
    pipeline.on('title', (title) => {
      if (isCurrent()) this.emit('streamTitle', track, title);
    });
    pipeline.on('loudness', (report) => {
      if (isCurrent()) this.loudnessReport = report;
    });
    pipeline.on('ready', () => {
      if (isCurrent()) this.leaveBuffering(pipeline);
    });
    pipeline.on('exit', (exit) => {
      if (!isCurrent() || exit.kind === 'killed') return;
      if (exit.kind === 'failed' && exit.problem === 'decoderMissing')
        this.endTrack(this.spawnFailureEnd(exit.message));
      else this.leaveBuffering(pipeline);
    });
    return pipeline;
  }

  private leaveBuffering(pipeline: TrackPipeline): void {
    const state = this.currentState;
    if (state.status !== 'buffering') return;
    // A pipeline that failed or stalled before producing a sample has nothing to play: report it at once.
    const exit = pipeline.exit;
    if ((exit?.kind === 'failed' || exit?.kind === 'stalled') && pipeline.producedNothing) {
      this.endTrack(trackEndOf(exit));
      return;
    }
    if (pipeline.ready) this.startPlaying(state.playback);
  }

  private startPlaying(playback: Playback): void {
    const firstStart = !playback.started;
    playback.started = true;
    this.setState({ status: 'playing', playback, missesAfterEnd: 0 });
    if (firstStart) this.emit('trackStart', playback.track);
  }

  private finishTrack(playback: Playback): void {
    const exit = playback.pipeline.exit;
    this.endTrack(exit ? trackEndOf(exit) : { reason: 'finished' });
  }

  private endTrack(end: TrackEnd): void {
    const state = this.currentState;
    if (state.status === 'idle') return;
    this.cancelNext();
    state.playback.pipeline.kill();
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
    return { reason: 'error', message, problem: 'decoderMissing', stopPlayback };
  }

  private setState(next: AudioPlayerState): void {
    const previous = this.currentState;
    this.currentState = next;
    const needsClock = next.status === 'playing' || (next.status === 'paused' && next.silenceFramesLeft > 0);
    if (!needsClock) this.leaveClock();
    else if (this.onClock) {
      // What the next tick sends has changed (a pause sends silence, a resume the music again).
      this.prepare();
    } else {
      this.onClock = true;
      // The scheduler prepares a player as it adds it.
      this.scheduler.add(this);
    }
    this.emit('stateChange', previous, next);
  }

  private leaveClock(): void {
    this.onClock = false;
    this.prepared = undefined;
    this.scheduler.remove(this);
  }

  private endVoice(): void {
    if (!this.talking) return;
    this.talking = false;
    this.sink.endVoice();
  }

  private applyDucking(): void {
    if (this.ducking.enabled && this.othersTalking) this.engine.duck(this.ducking.volumePercent);
    else this.engine.unduck();
  }

  private reportError(error: Error): void {
    // EventEmitter throws on an unheard 'error'; a player problem must not crash the daemon.
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }
}

/** How long a track plays: to its preview's end, else its duration; undefined when not known. */
function lengthOf(track: Track): number | undefined {
  return track.stopAtSeconds ?? track.durationSeconds;
}

/** How a track whose decoder ended this way ends (a spawn failure is counted apart, see spawnFailureEnd). */
function trackEndOf(exit: DecoderExit): TrackEnd {
  switch (exit.kind) {
    case 'failed':
      return { reason: 'error', message: exit.message, problem: exit.problem, stopPlayback: false };
    case 'stalled':
      return { reason: 'stalled', stallSeconds: exit.stallSeconds };
    case 'finished':
    case 'killed':
      return { reason: 'finished' };
  }
}
