/**
 * QQ Music's own loudness figure for a track, from the track object its answers carry (here the
 * `CgiGetTrackInfo` look-up the source makes before asking for the audio path). Tracks carry it twice:
 * `volume: {gain, peak, lra}` and the newer `vf: [gain, peak, lra]`, which L-1124/QQMusicApi
 * documents as ReplayGain (qqmusic_api/models/base.py `Song.vf`: "音量平衡数组 (ReplayGain)": the
 * suggested gain in dB, the signal's peak amplitude, the loudness range).
 *
 * The gain is ReplayGain's, to -18 LUFS (platform-loudness.ts): recorded answers give 告白气球 (2016)
 * -8.993 dB and Faded (2015) -10.253, i.e. about -9 and -7.7 LUFS, what such masters measure, and a
 * 1989 Hong Kong song +0.541, i.e. -18.5; the peak is linear (0.815, 0.99, 1). A track QQ Music has
 * not analysed answers `{"gain":0,"peak":0,"lra":0}` (and `vf` null): no figure, and the bot
 * measures it as it plays.
 */
import type { KnownLoudness } from '../../domain/loudness';
import { loudnessFromTrackGain } from '../platform-loudness';
import type { Track } from './qq-music-schemas';

/** The track's loudness where QQ Music has analysed it; undefined where it has not. */
export function qqMusicLoudness(track: Pick<Track, 'volume' | 'vf'>): KnownLoudness | undefined {
  const gain = track.volume?.gain ?? track.vf?.[0];
  const peak = track.volume?.peak ?? track.vf?.[1];
  if (gain == null || (gain === 0 && !peak)) return undefined;
  return loudnessFromTrackGain(gain, peak);
}
