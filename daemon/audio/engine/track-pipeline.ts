/**
 * The seam between the audio player and the engine that makes its frames. The player (state, position,
 * frame health, the underrun and pause policies) owns what is sent when; the engine (worker-engine.ts:
 * decoding, gain and encoding on a pool of worker threads that keep a small lookahead of encoded frames
 * per player) only turns a track into a TrackPipeline and carries the player's gain. The seam keeps
 * the player's policies testable apart from the threads that make the frames.
 */
import type { EventEmitter } from 'node:events';
import type { LoudnessSource } from '../../../shared/domain/loudness';
import type { DecoderExit } from '../decode/decoder';
import type { Track } from '../track';

/**
 * What the tick gets from a pipeline: a frame to send, nothing yet (an underrun), or the end: `joined`
 * when the pipeline queued behind this one (`PlayerEngine.queue`) follows from the next frame on.
 */
export type PipelineFrame = AudioFrame | { kind: 'starved' } | { kind: 'ended' } | { kind: 'joined' };
export interface AudioFrame {
  kind: 'audio';
  opus: Uint8Array;
}

export const STARVED: PipelineFrame = { kind: 'starved' };
export const ENDED: PipelineFrame = { kind: 'ended' };
export const JOINED: PipelineFrame = { kind: 'joined' };

export interface PipelineEvents {
  /** The decoder process is running. */
  spawn: [];
  /** Enough is buffered to start sending (or the decoder has already ended). Emitted once. */
  ready: [];
  /** The decoder is gone; emitted once, before `ready` when it ended early. */
  exit: [DecoderExit];
  /** A user's live stream named what plays now (its ICY StreamTitle changed). */
  title: [string];
  /** The loudness normalization's gain now, and where its figure comes from. */
  loudness: [LoudnessReport];
}

export interface LoudnessReport {
  gainDb: number;
  source: LoudnessSource;
}

export interface PipelineSpec {
  ffmpegPath: string;
  track: Track;
  seekSeconds: number;
  /** PCM frames to buffer before `ready` (the policy's prebuffer). */
  prebufferFrames: number;
  /** How long a relayed stream may send nothing (the policy's stream stall). */
  stallMs: number;
  /** The loudness target (LUFS) the track is brought to; absent: played as it is. */
  loudnessTargetLufs?: number;
}

/** One track's pipeline from a seek point on: replaced wholesale on seek, killed on stop. */
export interface TrackPipeline extends EventEmitter<PipelineEvents> {
  readonly exit: DecoderExit | undefined;
  readonly ready: boolean;
  /** The decoder ended without producing a single frame (nothing to play, report it at once). */
  readonly producedNothing: boolean;
  /** The loudness normalization last reported (a queued pipeline's, from before it joined). */
  readonly loudness: LoudnessReport | undefined;
  /**
   * The frame `takeFrame` would answer now, without taking it, so its packet is built before its tick.
   * When `takeFrame` then answers that same frame, it answers this same AudioFrame object.
   */
  peekFrame(): PipelineFrame;
  /** The frame for this tick. Never blocks: an engine that is behind answers `starved`. */
  takeFrame(): PipelineFrame;
  /** Stops decoding now; frames not yet taken are dropped. Safe to call again. */
  kill(): void;
}

/** How a queued pipeline joins the one playing (the worker's JoinPlan, less the generations). */
export interface QueuePlan {
  crossfadeFrames: number;
  fadeAtSequence: number;
}

/** A player's engine: makes its pipelines and holds its gain, across tracks. */
export interface PlayerEngine {
  readonly volume: number;
  setVolume(volumePercent: number): void;
  duck(duckPercent: number): void;
  unduck(): void;
  /** The loudness target from now on (undefined: off), the track playing included. */
  setLoudnessTarget(targetLufs: number | undefined): void;
  start(spec: PipelineSpec): TrackPipeline;
  /**
   * Starts the next track behind the one playing, to follow it without a gap (see JoinPlan); it
   * replaces one queued before. Undefined when nothing plays. Its frames come once the playing
   * pipeline answers `joined` and `join()` has made it the one playing.
   */
  queue(spec: PipelineSpec, plan: QueuePlan): TrackPipeline | undefined;
  /** Drops the queued pipeline, if any. */
  cancelQueued(): void;
  /** The queued pipeline becomes the one playing (the one before has answered `joined`). */
  join(): TrackPipeline | undefined;
  /** Frees the encoder (and the worker's slot). The engine cannot be used afterwards. */
  destroy(): void;
}
