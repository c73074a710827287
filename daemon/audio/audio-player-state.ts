/**
 * The audio player's state as a discriminated union: each state carries only what exists in it, so a
 * paused player's silence countdown or a playing player's miss streak cannot leak into another state.
 */
import type { DecodeProblem } from './decode/decode-problem';
import type { TrackPipeline } from './engine/track-pipeline';
import type { Track } from './track';

/**
 * Why a track stopped. An error's `problem` is its kind (what the bot says), `message` its words (what
 * the log keeps); `stopPlayback` asks the queue not to move on (ffmpeg keeps failing to start);
 * `stalled`: its stream sent nothing for `stallSeconds`.
 */
export type TrackEnd =
  | { reason: 'finished' }
  | { reason: 'stopped' }
  | { reason: 'error'; message: string; problem: DecodeProblem; stopPlayback: boolean }
  | { reason: 'stalled'; stallSeconds: number };

/** One track's playback; its pipeline is replaced wholesale on seek, the track and its start flag stay. */
export interface Playback {
  track: Track;
  pipeline: TrackPipeline;
  seekOffsetSeconds: number;
  /** Audio frames handed to the sink since the last (re)start; silence does not count. */
  framesSent: number;
  started: boolean;
  /** At this many frames sent the track is near its end (`nearEnd`); absent for a track of no length. */
  nearEndFrame: number | undefined;
}

export type AudioPlayerState =
  | { status: 'idle' }
  | { status: 'buffering'; playback: Playback }
  | { status: 'playing'; playback: Playback; missesAfterEnd: number }
  | { status: 'paused'; playback: Playback; silenceFramesLeft: number };
