/** What a player plays: an input for ffmpeg and what is known of its length. */
import type { KnownLoudness } from '../../shared/domain/loudness';
import type { DecoderInput } from './decode/decoder-input';

export interface Track {
  input: DecoderInput;
  /** Length in seconds when known; `elapsedSeconds` is clamped to it. Absent for live streams. */
  durationSeconds?: number;
  /** Play no further than this position: a preview clip cut from a longer stream. */
  stopAtSeconds?: number;
  /** Its loudness where the platform or the file says it; else it is measured as it decodes. */
  loudness?: KnownLoudness;
  /**
   * A platform's stream: resolves the song again (as its play did) for a fresh signed address when the
   * one in `input` has expired; undefined when its source has none. Never throws. The engine then
   * plays on from the fresh one and keeps it in `input` for the track's later pipelines (a seek).
   */
  renew?: () => Promise<DecoderInput | undefined>;
}
