/** The daemon's decoder finds ffmpeg with the shared locator (the api's upload checks use it too). */
export {
  FFMPEG_NOT_FOUND,
  type FfmpegLocation,
  type FfmpegLocatorOptions,
  locateFfmpeg,
} from '../../shared/media/ffmpeg-locator';
