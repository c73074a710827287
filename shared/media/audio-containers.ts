/**
 * The demuxers (ffmpeg's names) a song's audio may be read with, for `-format_whitelist`: the
 * containers the platforms serve (`mp3`, `aac` as ADTS, `ogg` for Vorbis and Opus, `mov` for MP4 and
 * M4A, `matroska` for WebM and MKA, `flac`, `wav`, `asf` for WMA, `mpegts` for HLS segments and some
 * stations) and what a Jellyfin library may hold as it is (`ape`, `aiff`, `wv`, `dsf`, `caf`, `w64`,
 * `tta`, `mpc`, `mpc8`, `ac3`, `eac3`). Each reads only the input it is given: none opens other
 * addresses (hls, dash, concat, …), which is what the whitelist is for.
 */
export const AUDIO_CONTAINER_FORMATS = [
  ...['mp3', 'aac', 'ogg', 'mov', 'matroska', 'flac', 'wav', 'asf', 'mpegts'],
  ...['ape', 'aiff', 'wv', 'dsf', 'caf', 'w64', 'tta', 'mpc', 'mpc8', 'ac3', 'eac3'],
].join(',');
