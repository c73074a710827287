/**
 * Opus encoding through opus-encdec's WASM libopus: 48 kHz stereo, 20 ms frames, application AUDIO,
 * signal MUSIC, 96 kbps. 96 kbps is where stereo music at 48 kHz becomes hard to tell from the source
 * in listening tests (Opus recommends 96-128 kbps for stereo music), while staying well inside a
 * voice server's per-client bandwidth. One encoder serves a bot for its whole life, across tracks;
 * `destroy()` returns its state and buffers to the WASM heap.
 */
import { OPUS, type OpusEncoderModule, opusEncoderModule } from './opus-wasm';
import { PCM_FORMAT, SAMPLES_PER_CHANNEL_PER_FRAME, SAMPLES_PER_FRAME } from './pcm-format';

export const OPUS_MUSIC_BITRATE_BPS = 96_000;

/** libopus's recommended output bound: enough for any single frame at any bitrate. */
const MAX_PACKET_BYTES = 4000;
const INT16_SCALE = 1 / 32768;

export interface OpusEncoderOptions {
  bitrateBps?: number;
}

export class OpusEncoder {
  private readonly wasm: OpusEncoderModule;
  private state: number;
  private readonly pcmPointer: number;
  private readonly outputPointer: number;

  constructor(options: OpusEncoderOptions = {}) {
    this.wasm = opusEncoderModule();
    const wasm = this.wasm;
    const errorPointer = wasm._malloc(4);
    this.state = wasm._opus_encoder_create(
      PCM_FORMAT.sampleRateHz,
      PCM_FORMAT.channels,
      OPUS.APPLICATION_AUDIO,
      errorPointer,
    );
    const error = wasm.HEAP32[errorPointer >> 2];
    wasm._free(errorPointer);
    if (error !== OPUS.OK || this.state === 0) throw new Error(`opus_encoder_create failed (${error})`);
    this.pcmPointer = wasm._malloc(SAMPLES_PER_FRAME * Float32Array.BYTES_PER_ELEMENT);
    this.outputPointer = wasm._malloc(MAX_PACKET_BYTES);
    this.control(OPUS.SET_BITRATE_REQUEST, options.bitrateBps ?? OPUS_MUSIC_BITRATE_BPS);
    this.control(OPUS.SET_SIGNAL_REQUEST, OPUS.SIGNAL_MUSIC);
  }

  /** Encodes one 20 ms interleaved stereo frame (1920 samples) into a new Opus packet. */
  encode(pcm: Int16Array): Uint8Array {
    if (this.state === 0) throw new Error('OpusEncoder used after destroy()');
    if (pcm.length !== SAMPLES_PER_FRAME)
      throw new Error(`expected ${SAMPLES_PER_FRAME} samples, got ${pcm.length}`);
    const wasm = this.wasm;
    const input = wasm.HEAPF32.subarray(this.pcmPointer >> 2, (this.pcmPointer >> 2) + SAMPLES_PER_FRAME);
    for (let i = 0; i < SAMPLES_PER_FRAME; i++) input[i] = (pcm[i] ?? 0) * INT16_SCALE;
    const byteCount = wasm._opus_encode_float(
      this.state,
      this.pcmPointer,
      SAMPLES_PER_CHANNEL_PER_FRAME,
      this.outputPointer,
      MAX_PACKET_BYTES,
    );
    if (byteCount < 0) throw new Error(`opus_encode_float failed (${byteCount})`);
    return wasm.HEAPU8.slice(this.outputPointer, this.outputPointer + byteCount);
  }

  /** Frees the encoder state and its buffers. Safe to call twice. */
  destroy(): void {
    if (this.state === 0) return;
    this.wasm._opus_encoder_destroy(this.state);
    this.wasm._free(this.pcmPointer);
    this.wasm._free(this.outputPointer);
    this.state = 0;
  }

  /** opus_encoder_ctl is variadic; in WASM its variadic argument is passed as a pointer to the value. */
  private control(request: number, value: number): void {
    const argumentPointer = this.wasm._malloc(4);
    this.wasm.HEAP32[argumentPointer >> 2] = value;
    const result = this.wasm._opus_encoder_ctl(this.state, request, argumentPointer);
    this.wasm._free(argumentPointer);
    if (result !== OPUS.OK) throw new Error(`opus_encoder_ctl(${request}) failed (${result})`);
  }
}
