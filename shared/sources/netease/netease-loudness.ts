/**
 * NetEase's own loudness figure for a song file, from its song URL answer. Each `data[]` entry
 * carries `gain` and `peak` (and `closedGain`/`closedPeak`, which no client reads and we leave too).
 *
 * - `gain` is a dB adjustment: HyPlayer/HyPlayer plays it as one (commit c9fefce "实现Audio Gain
 *   Effect": HyPlayControl/HyPlayList.cs hands `data[0].gain` to HyPlayer/AudioEffectComponent,
 *   whose AudioEffects.cs `GetAudioGainMultiplier` multiplies the samples by 10^(gain/20)). The
 *   values are ReplayGain-like track gains, to four places: -6.3072 and -5.2158 on analysed MP3s.
 * - `peak` is linear, full scale 1.0, as ReplayGain's peak: 1 on those MP3s, 1.0606 and 1.2562 on
 *   AAC files (a lossy file's decoded peak may pass full scale).
 * - The reference the gain aims at is not documented, nor named by any client we found; the pair is
 *   ReplayGain's (a dB track gain, a linear peak), so we read it at ReplayGain 2.0's -18 LUFS
 *   (platform-loudness.ts). Measured loudness of real NetEase files would confirm or correct it.
 * - A gain of exactly 0 is "not analysed": NetEase's AAC answers carry `"gain":0.0` beside a real
 *   peak (`"peak":1.0606,"closedGain":0.0,"closedPeak":0.0`), answers from before `peak` existed
 *   `"gain":0`, a documented example `gain` 0 with `peak` 0; an analysed gain of exactly 0.0000 dB
 *   would be a coincidence. Such a file has no figure, and
 *   the bot measures it as it plays.
 *
 * The answer shapes are those users of NeteaseCloudMusicApi's `/song/url/v1` kept in their code
 * (e.g. lei1248276/MOO-music src/api/interface/SongUrl.ts, dddqmmx/ncm-desktop-for-linux
 * src/renderer/src/types/song.ts, and recorded answers with the values quoted above).
 */
import type { KnownLoudness } from '../../domain/loudness';
import { loudnessFromTrackGain } from '../platform-loudness';
import type { SongUrlFile } from './netease-schemas';

/** The file's loudness where NetEase has analysed it; undefined where it has not. */
export function neteaseLoudness(file: Pick<SongUrlFile, 'gain' | 'peak'>): KnownLoudness | undefined {
  if (file.gain == null || file.gain === 0) return undefined;
  return loudnessFromTrackGain(file.gain, file.peak);
}
