/**
 * The messages between the main thread and an audio worker. Control only: a track starts, stops, its
 * gain changes, a stream input's bytes are relayed. Encoded frames never travel as messages; they go
 * through each player's FrameRing. Every pipeline message carries the pipeline's generation, so a
 * message about a pipeline that a seek or skip has already replaced is recognised and dropped.
 */

import type { KnownLoudness } from '../../../shared/domain/loudness';
import type { LoggingConfig } from '../../../shared/logger';
import type { DecoderExit } from '../decode/decoder';
import type { DecoderInput, RawPcmFormat, UrlInput } from '../decode/decoder-input';
import type { OpusEncoderOptions } from '../encode/encoder';
import type { LoudnessReport } from './track-pipeline';

/** The worker's half of a decoder input; a stream's bytes follow as `input` messages. */
export type WireInput =
  | Exclude<DecoderInput, { kind: 'stream' }>
  | { kind: 'stream'; rawFormat?: RawPcmFormat };

export type GainChange =
  | { op: 'volume'; percent: number }
  | { op: 'duck'; percent: number }
  | { op: 'unduck' };

/**
 * With a gain change while a pipeline plays: re-encode its frames from `fromSequence` on (the main
 * thread still sends the ones before it as they are) at the new gain, as gain epoch `epoch`.
 */
export interface GainRewind {
  generation: number;
  epoch: number;
  fromSequence: number;
}

/**
 * A pipeline queued behind the one playing (`generation`): it decodes ahead and its first frame follows
 * that one's last (gapless), or, with `crossfadeFrames`, starts under its last frames, the two faded
 * into each other with equal power. The fade starts at `fadeAtSequence` of the pipeline playing (its
 * end by the known duration), or earlier once that one's decoder has ended with less left.
 */
export interface JoinPlan {
  generation: number;
  crossfadeFrames: number;
  fadeAtSequence: number;
}

export type ToWorker =
  | {
      type: 'open';
      slot: number;
      ring: SharedArrayBuffer;
      volumePercent: number;
      /** Set when the player is ducked at the time it (re)opens. */
      duckPercent?: number;
      encoder: OpusEncoderOptions;
      lookaheadFrames: number;
    }
  | {
      type: 'play';
      slot: number;
      generation: number;
      ffmpegPath: string;
      input: WireInput;
      seekSeconds: number;
      stopAtSeconds?: number;
      prebufferFrames: number;
      stallMs: number;
      /** The loudness target; absent: the track plays as it is (until normalization is turned on). */
      loudnessTargetLufs?: number;
      /** The track's own loudness figure, where it has one. */
      known?: KnownLoudness;
      /** Set when it is queued behind the pipeline playing, to follow it without a gap. */
      after?: JoinPlan;
      /** A platform's stream the main thread can resolve again when its address expires (`renew`). */
      renewable?: true;
    }
  /** The answer to the worker's `renew` of that number: the fresh stream, absent when there is none. */
  | { type: 'renewed'; slot: number; request: number; input?: UrlInput }
  | { type: 'input'; slot: number; generation: number; chunk: Uint8Array }
  | { type: 'inputEnd'; slot: number; generation: number }
  | { type: 'stop'; slot: number; generation: number }
  | { type: 'gain'; slot: number; change: GainChange; rewind?: GainRewind }
  /** The loudness target changed while a track plays (absent: normalization turned off). */
  | { type: 'loudness'; slot: number; targetLufs?: number }
  | { type: 'close'; slot: number };

export type FromWorker =
  | { type: 'spawn'; slot: number; generation: number; pid: number }
  | { type: 'ready'; slot: number; generation: number }
  | {
      type: 'exit';
      slot: number;
      generation: number;
      exit: DecoderExit;
      /** The decoder ended before a single frame came out of it. */
      producedNothing: boolean;
    }
  /** A user's live stream named what plays now (its ICY StreamTitle). */
  | { type: 'title'; slot: number; generation: number; title: string }
  /** The loudness normalization's gain moved (by a reportable step) or its figure's source changed. */
  | { type: 'loudness'; slot: number; generation: number; report: LoudnessReport }
  /** An ffmpeg child has exited or been killed (the pool stops tracking its pid). */
  | { type: 'childGone'; slot: number; pid: number }
  /** The pipeline's stream address expired: resolve its song again and answer `renewed` with `request`. */
  | { type: 'renew'; slot: number; generation: number; request: number }
  /** A relayed stream input is ahead of ffmpeg: stop reading it (`inputResume`: read again). */
  | { type: 'inputPause' | 'inputResume'; slot: number; generation: number };

/** What each worker gets at start: its doorbell, the process's encoder lock, how to log. */
export interface AudioWorkerData {
  logging: LoggingConfig;
  /** Int32 the main thread bumps (and notifies) after each tick that took frames from this worker. */
  doorbell: SharedArrayBuffer;
  encoderLock: SharedArrayBuffer;
  /** Module hooks the worker registers before it loads its code (AudioWorkerPoolOptions.loaderHooks). */
  loaderHooks?: string[];
}
