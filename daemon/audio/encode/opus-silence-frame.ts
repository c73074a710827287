/**
 * The 3-byte Opus packet that decodes to 20 ms of silence (a CELT frame with no energy). Sent on an
 * underrun and before going quiet, so the listener's jitter buffer ends cleanly instead of cutting off.
 */
export const OPUS_SILENCE_FRAME: Uint8Array = Uint8Array.of(0xf8, 0xff, 0xfe);
