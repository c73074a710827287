/**
 * The one PCM format the audio path speaks between ffmpeg and Opus: 48 kHz, stereo, signed 16-bit
 * little-endian, cut into 20 ms frames (what Opus and the TS3 voice codec both expect).
 */
export const PCM_FORMAT = {
  sampleRateHz: 48_000,
  channels: 2,
  bytesPerSample: 2,
  frameMs: 20,
} as const;

/** Samples per channel in one frame: 48 000 Hz × 20 ms = 960. */
export const SAMPLES_PER_CHANNEL_PER_FRAME = (PCM_FORMAT.sampleRateHz * PCM_FORMAT.frameMs) / 1000;

/** Interleaved samples in one frame: 960 × 2 channels = 1920. */
export const SAMPLES_PER_FRAME = SAMPLES_PER_CHANNEL_PER_FRAME * PCM_FORMAT.channels;

/** Bytes in one frame: 1920 samples × 2 bytes = 3840. */
export const FRAME_BYTES = SAMPLES_PER_FRAME * PCM_FORMAT.bytesPerSample;

export const FRAME_SECONDS = PCM_FORMAT.frameMs / 1000;

export const BYTES_PER_SECOND = FRAME_BYTES / FRAME_SECONDS;
