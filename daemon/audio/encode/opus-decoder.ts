/**
 * Decodes Opus frames back to 48 kHz stereo Int16 PCM through opus-encdec's WASM libopus. The daemon
 * only encodes; tests, the bench and the TS3 test server decode what a listener would hear.
 */
import { err, ok, type Result } from '../../../shared/result';
import { PCM_FORMAT } from '../pcm-format';
import { OPUS, type OpusDecoderModule, opusDecoderModule } from './opus-wasm';

/** The longest Opus packet is 120 ms: 5760 samples per channel at 48 kHz. */
const MAX_SAMPLES_PER_CHANNEL = 5760;
const MAX_PACKET_BYTES = 4000;

export class OpusDecoder {
  private readonly wasm: OpusDecoderModule;
  private state: number;
  private readonly packetPointer: number;
  private readonly pcmPointer: number;

  constructor() {
    this.wasm = opusDecoderModule();
    const wasm = this.wasm;
    const errorPointer = wasm._malloc(4);
    this.state = wasm._opus_decoder_create(PCM_FORMAT.sampleRateHz, PCM_FORMAT.channels, errorPointer);
    const error = wasm.HEAP32[errorPointer >> 2];
    wasm._free(errorPointer);
    if (error !== OPUS.OK || this.state === 0) throw new Error(`opus_decoder_create failed (${error})`);
    this.packetPointer = wasm._malloc(MAX_PACKET_BYTES);
    this.pcmPointer = wasm._malloc(
      MAX_SAMPLES_PER_CHANNEL * PCM_FORMAT.channels * Float32Array.BYTES_PER_ELEMENT,
    );
  }

  /**
   * Decodes one Opus packet into interleaved stereo samples (1920 for a 20 ms frame). A packet libopus
   * cannot decode is an error value: packets come off the network, and the TS3 test server counts
   * them rather than stopping.
   */
  decode(frame: Uint8Array): Result<Int16Array> {
    if (this.state === 0) throw new Error('OpusDecoder used after destroy()');
    if (frame.length > MAX_PACKET_BYTES) return err(`Opus packet of ${frame.length} bytes is too long`);
    const wasm = this.wasm;
    wasm.HEAPU8.set(frame, this.packetPointer);
    const samplesPerChannel = wasm._opus_decode_float(
      this.state,
      this.packetPointer,
      frame.length,
      this.pcmPointer,
      MAX_SAMPLES_PER_CHANNEL,
      0,
    );
    if (samplesPerChannel < 0) return err(`opus_decode_float failed (${samplesPerChannel})`);
    const sampleCount = samplesPerChannel * PCM_FORMAT.channels;
    const decoded = wasm.HEAPF32.subarray(this.pcmPointer >> 2, (this.pcmPointer >> 2) + sampleCount);
    const pcm = new Int16Array(sampleCount);
    for (let i = 0; i < sampleCount; i++) {
      const scaled = Math.round((decoded[i] ?? 0) * 32768);
      pcm[i] = scaled > 32767 ? 32767 : scaled < -32768 ? -32768 : scaled;
    }
    return ok(pcm);
  }

  /** Frees the decoder state and its buffers. Safe to call twice. */
  destroy(): void {
    if (this.state === 0) return;
    this.wasm._opus_decoder_destroy(this.state);
    this.wasm._free(this.packetPointer);
    this.wasm._free(this.pcmPointer);
    this.state = 0;
  }
}
