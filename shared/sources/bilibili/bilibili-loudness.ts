/**
 * Bilibili's own loudness figure for a video, from its `/x/player/wbi/playurl` answer. Beside the
 * streams, `data.volume` carries the measurements of ffmpeg's loudnorm filter for the video's audio
 * (`measured_i`, `measured_lra`, `measured_tp`, `measured_threshold`) and the player's targets
 * (`target_i` -14, `target_tp` -1, `target_offset`, `multi_scene_args` with string values):
 * bggRGjQaUbCoE/PiliPlus (lib/models/video/play/url.dart `Volume`) hands them to loudnorm as its
 * `measured_I`/`measured_TP`, so `measured_i` is the integrated loudness (LUFS) and `measured_tp` the
 * true peak (dBTP; above 0 on loud masters: 3, 3.8 in recorded answers). The same fields are the
 * `VolumeInfo` of the app's playurl protocol (PiliPlus lib/grpc/bilibili/app/playurl/v1.pbjson.dart).
 *
 * A video without a measurement has no `volume`, or one of zeros (PiliPlus `isNotEmpty`); an
 * integrated loudness of 0 LUFS or above is no real one either. Then there is no figure, and the bot
 * measures the stream as it plays.
 */
import type { KnownLoudness } from '../../domain/loudness';
import type { PlayUrlData } from './bilibili-schemas';

/** The video's loudness where Bilibili has measured it; undefined where it has not. */
export function bilibiliLoudness(data: PlayUrlData): KnownLoudness | undefined {
  const measured = data.volume;
  if (measured?.measured_i == null || measured.measured_i >= 0) return undefined;
  return {
    integratedLufs: measured.measured_i,
    ...(measured.measured_tp != null && { peakDb: measured.measured_tp }),
    source: 'platform',
  };
}
