/** The daemon finds its decoder and ffmpeg with the shared locator (the api's upload checks use it too). */
export {
  FFMPEG_NOT_FOUND,
  type FfmpegLocation,
  type FfmpegLocatorOptions,
  locateDecoder,
  locateFfmpeg,
} from '../../../shared/media/ffmpeg-locator';
