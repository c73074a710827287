/**
 * An upload's loudness as its row keeps it (the `loudness_*` columns of `uploads`), and back as the
 * figure a resolved stream carries (shared/domain/loudness.ts).
 */
import type { KnownLoudness } from '../../domain/loudness';

/** The figures an upload can have: from its own tags, or measured once it was stored. */
export type UploadLoudness = KnownLoudness & { source: 'tags' | 'measured' };

export interface LoudnessColumns {
  loudnessLufs: number | null;
  loudnessPeakDb: number | null;
  loudnessSource: UploadLoudness['source'] | null;
}

export const loudnessColumns = (figure: UploadLoudness | undefined): LoudnessColumns => ({
  loudnessLufs: figure?.integratedLufs ?? null,
  loudnessPeakDb: figure?.peakDb ?? null,
  loudnessSource: figure?.source ?? null,
});

/** The stored figure; undefined while none is known (not yet measured, or stored before issue 39). */
export function storedLoudness(row: LoudnessColumns): UploadLoudness | undefined {
  if (row.loudnessLufs === null || row.loudnessSource === null) return undefined;
  return {
    integratedLufs: row.loudnessLufs,
    ...(row.loudnessPeakDb !== null && { peakDb: row.loudnessPeakDb }),
    source: row.loudnessSource,
  };
}
