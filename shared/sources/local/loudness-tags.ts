/**
 * A file's own loudness figure, from the tags a player's library tool wrote into it (issue 39), so an
 * upload that carries one need not be measured:
 * - Opus `R128_TRACK_GAIN` (RFC 7845 §5.2.1): a signed Q7.8 number of dB that brings the track to
 *   -23 LUFS (EBU R128), after the header's output gain, which every decoder applies;
 * - ReplayGain 2 `REPLAYGAIN_TRACK_GAIN` ("-6.12 dB"): the gain to a -18 LUFS reference, with
 *   `REPLAYGAIN_TRACK_PEAK` the track's highest sample as a linear amplitude (1.0 is full scale).
 * An Opus file's R128 tag wins over ReplayGain ones beside it: taggers that write ReplayGain into Opus
 * often ignore the header gain. A value that does not parse or lies outside any real track's range is
 * ignored, as if the tag were missing.
 */
import type { UploadLoudness } from './stored-loudness';

/** A tag's value by its lower-case name (audio-probe.ts reads tags without regard to case). */
export type TagLookup = (name: string) => string | undefined;

const R128_REFERENCE_LUFS = -23;
const REPLAYGAIN_REFERENCE_LUFS = -18;
/** Q7.8: the integer is 256 times the dB. */
const Q78_STEPS_PER_DB = 256;
/** No real track needs more than this much gain either way; a bigger figure is a broken tag. */
const MAX_GAIN_DB = 60;

/** "-6.12 dB", "+3.5dB", "2": a number of dB with an optional unit. */
const REPLAYGAIN_GAIN = /^([+-]?(?:\d+\.?\d*|\.\d+))\s*(?:db)?$/i;
const R128_GAIN = /^[+-]?\d+$/;
const LINEAR_PEAK = /^(?:\d+\.?\d*|\.\d+)$/;

const withinGainRange = (db: number) => Number.isFinite(db) && Math.abs(db) <= MAX_GAIN_DB;

function r128TrackGainDb(value: string | undefined): number | undefined {
  if (!value || !R128_GAIN.test(value)) return undefined;
  const db = Number(value) / Q78_STEPS_PER_DB;
  return withinGainRange(db) ? db : undefined;
}

function replayGainDb(value: string | undefined): number | undefined {
  const match = value && REPLAYGAIN_GAIN.exec(value);
  if (!match) return undefined;
  const db = Number(match[1]);
  return withinGainRange(db) ? db : undefined;
}

/** A linear peak as dBFS; undefined for nothing, zero (silence has no peak to speak of) or junk. */
function linearPeakDb(value: string | undefined): number | undefined {
  if (!value || !LINEAR_PEAK.test(value)) return undefined;
  const linear = Number(value);
  return linear > 0 ? 20 * Math.log10(linear) : undefined;
}

export function loudnessFromTags(tag: TagLookup): UploadLoudness | undefined {
  const r128 = r128TrackGainDb(tag('r128_track_gain'));
  if (r128 !== undefined) return { integratedLufs: R128_REFERENCE_LUFS - r128, source: 'tags' };
  const replayGain = replayGainDb(tag('replaygain_track_gain'));
  if (replayGain === undefined) return undefined;
  const peakDb = linearPeakDb(tag('replaygain_track_peak'));
  return {
    integratedLufs: REPLAYGAIN_REFERENCE_LUFS - replayGain,
    ...(peakDb !== undefined && { peakDb }),
    source: 'tags',
  };
}
