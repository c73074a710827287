/**
 * A platform's own loudness figure as the known loudness a resolved stream carries. Platforms that
 * analyse their files answer in ReplayGain's terms: a track gain, the dB that brings the track to a
 * reference loudness, and a linear sample peak (1.0 is full scale). ReplayGain 2.0 puts that
 * reference at -18 LUFS, and Jellyfin's own answers say so too (jellyfin/jellyfin
 * Emby.Server.Implementations/Dto/DtoService.cs: `NormalizationGain = -18 - LUFS`, "-18 LUFS
 * reference, same as ReplayGain 2.0"), so the track's integrated loudness is that reference less
 * its gain.
 */
import type { KnownLoudness } from '../domain/loudness';

/** The loudness a ReplayGain-style track gain brings a track to (ReplayGain 2.0, EBU R128 scale). */
export const REPLAY_GAIN_REFERENCE_LUFS = -18;

/** Hundredths of a dB: finer than anyone hears, and a float32 gain (Jellyfin's) reads cleanly. */
const hundredths = (db: number) => Math.round(db * 100) / 100;

/** The track's loudness from its gain to the reference (dB) and, where known, its linear peak. */
export function loudnessFromTrackGain(gainDb: number, peak?: number | null): KnownLoudness {
  return {
    integratedLufs: hundredths(REPLAY_GAIN_REFERENCE_LUFS - gainDb),
    // A peak of 0 is a figure missing, not silence: a track that plays has some peak.
    ...(peak != null && peak > 0 && { peakDb: hundredths(20 * Math.log10(peak)) }),
    source: 'platform',
  };
}
