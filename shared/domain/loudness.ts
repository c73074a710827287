/**
 * Loudness normalization's figures (issue 39): every track is brought to one integrated loudness
 * (EBU R128 / ITU-R BS.1770, in LUFS), so a quiet upload and a loud video sound alike, with a ceiling
 * no peak may pass. A bot's target is its own (`loudnessTarget`); the ceiling is the same for all.
 */

/** The target a bot starts with: what streaming services play at (Spotify, YouTube: about -14 to -16). */
export const DEFAULT_LOUDNESS_TARGET_LUFS = -16;
/** The targets a bot may be given: broadcast's -23 up to a loud -10. */
export const LOUDNESS_TARGET_RANGE = { min: -23, max: -10 } as const;
/** No peak may pass this after the gain (dBTP): a gain that would clip is limited instead. */
export const TRUE_PEAK_CEILING_DB = -1;

/**
 * Where a track's loudness figure comes from: the platform's own (NetEase's gain, Jellyfin's
 * normalization gain), an upload's ReplayGain or R128 tags, or measured (an upload once when it was
 * sent; any other stream while the decoder runs ahead of the clock).
 */
export type LoudnessSource = 'platform' | 'tags' | 'measured';

/** A bot's normalization setting: whether it is on, and the loudness it brings every track to. */
export interface LoudnessSetting {
  enabled: boolean;
  targetLufs: number;
}

/** What is known of a track's loudness before it plays, so the bot need not measure it. */
export interface KnownLoudness {
  /** Integrated loudness, LUFS. */
  integratedLufs: number;
  /** The highest peak, dBFS (a true peak where the figure is one), where known. */
  peakDb?: number;
  source: LoudnessSource;
}
