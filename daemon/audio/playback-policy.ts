/**
 * How a player behaves at the edges of a stream, as data (the discord.js voice defaults).
 */
export interface PlaybackPolicy {
  /**
   * Consecutive missing frames after the decoder has reached the end before the track counts as over.
   * Each is sent as Opus silence, which also pads the end so the listener's decoder fades out cleanly.
   */
  maxMissedFramesAfterEnd: number;
  /** Silence frames sent after a pause before the bot stops talking. */
  pauseSilenceFrames: number;
  /** Frames buffered before a (re)started pipeline starts sending: absorbs a slow first read. */
  prebufferFrames: number;
  /** How long a platform's stream may send nothing before the track ends (a dead CDN connection). */
  streamStallMs: number;
}

/** How long a platform's stream may send nothing before its track is given up. */
export const STREAM_STALL_MS = 15_000;

export const DEFAULT_PLAYBACK_POLICY: PlaybackPolicy = {
  maxMissedFramesAfterEnd: 5,
  pauseSilenceFrames: 5,
  prebufferFrames: 5,
  streamStallMs: STREAM_STALL_MS,
};
