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
}
