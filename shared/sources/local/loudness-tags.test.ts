import { describe, expect, it } from 'vitest';
import { loudnessFromTags } from './loudness-tags';

/** The tags by lower-case name, as audio-probe.ts looks them up. */
const tags = (values: Record<string, string>) => loudnessFromTags((name) => values[name]);

describe('loudness from tags', () => {
  it('reads ReplayGain 2 against its -18 LUFS reference, with the linear peak in dBFS', () => {
    const found = tags({ replaygain_track_gain: '-6.12 dB', replaygain_track_peak: '0.5' });
    expect(found?.source).toBe('tags');
    expect(found?.integratedLufs).toBeCloseTo(-11.88, 6);
    expect(found?.peakDb).toBeCloseTo(-6.0206, 3);
  });

  it('takes a gain with a plus sign, without a unit or in any case of dB', () => {
    expect(tags({ replaygain_track_gain: '+3.5 dB' })?.integratedLufs).toBeCloseTo(-21.5, 6);
    expect(tags({ replaygain_track_gain: '2' })?.integratedLufs).toBeCloseTo(-20, 6);
    expect(tags({ replaygain_track_gain: '-1.25DB' })?.integratedLufs).toBeCloseTo(-16.75, 6);
  });

  it('reads an Opus R128 track gain as Q7.8 dB against -23 LUFS, before any ReplayGain beside it', () => {
    // -1234 / 256 = -4.8203125 dB.
    const found = tags({ r128_track_gain: '-1234', replaygain_track_gain: '-6.12 dB' });
    expect(found).toEqual({ integratedLufs: -23 + 1234 / 256, source: 'tags' });
    expect(tags({ r128_track_gain: '512' })?.integratedLufs).toBe(-25);
  });

  it('ignores values that do not parse or no track could have', () => {
    for (const gain of ['loud', '', 'dB', '-6,12 dB', '1e3', 'NaN', '-99 dB'])
      expect(tags({ replaygain_track_gain: gain }), gain).toBeUndefined();
    for (const gain of ['-4.5', '0x10', '20000', 'abc'])
      expect(tags({ r128_track_gain: gain }), gain).toBeUndefined();
  });

  it('falls back to ReplayGain when the R128 tag is broken', () => {
    expect(tags({ r128_track_gain: 'x', replaygain_track_gain: '-2 dB' })?.integratedLufs).toBeCloseTo(
      -16,
      6,
    );
  });

  it('keeps the gain without a peak when the peak is missing, zero or junk', () => {
    for (const peak of [undefined, '0', '-0.5', 'high']) {
      const found = tags({
        replaygain_track_gain: '-6 dB',
        ...(peak !== undefined && { replaygain_track_peak: peak }),
      });
      expect(found, peak).toEqual({ integratedLufs: -12, source: 'tags' });
    }
  });

  it('finds nothing without a track gain (a peak alone says nothing of loudness)', () => {
    expect(tags({})).toBeUndefined();
    expect(tags({ replaygain_track_peak: '0.9', replaygain_album_gain: '-3 dB' })).toBeUndefined();
  });
});
