/**
 * The demuxers (ffmpeg's names) a song's audio may be read with, for `-format_whitelist`: `mp3`,
 * `flac`, `aac` (ADTS), `ogg` (Vorbis, Opus), `wav`, `asf` (WMA), `ape`, `mov` (MP4, M4A), `matroska`
 * (MKA, WebM) and `mpegts` (HLS segments, some stations). Every one reads only the input it is given:
 * none that opens other addresses (hls, dash, concat, …), which is what the whitelist is for.
 */
export const AUDIO_CONTAINER_FORMATS = 'mp3,flac,aac,ogg,wav,asf,ape,mov,matroska,mpegts';
