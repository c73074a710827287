/**
 * Opus through opus-encdec's WASM builds of libopus (Emscripten modules loaded with require). The test
 * server decodes what bots send; tests and the bench encode tones with the same library.
 */
import { createRequire } from 'node:module';

/** Opus always runs at 48 kHz; TS3 uses 20 ms frames. */
export const OPUS_SAMPLE_RATE = 48_000;
export const FRAME_SAMPLES = 960;
const OPUS_APPLICATION_AUDIO = 2049;
const OPUS_SET_BITRATE = 4002;
/** Largest Opus packet (RFC 6716 §3.2.1 bounds a frame well below this). */
const MAX_PACKET_BYTES = 4000;

interface EmscriptenOpus {
  isReady: boolean;
  onready: (() => void) | null;
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _opus_decoder_create(rate: number, channels: number, errorPointer: number): number;
  _opus_decode_float(
    dec: number,
    data: number,
    len: number,
    out: number,
    frameSize: number,
    fec: number,
  ): number;
  _opus_decoder_destroy(dec: number): void;
  _opus_encoder_create(rate: number, channels: number, application: number, errorPointer: number): number;
  _opus_encode_float(enc: number, pcm: number, frameSize: number, out: number, maxBytes: number): number;
  _opus_encoder_ctl(enc: number, request: number, argsPointer: number): number;
  _opus_encoder_destroy(enc: number): void;
}

const require = createRequire(import.meta.url);
const modules = new Map<string, Promise<EmscriptenOpus>>();

function load(file: string): Promise<EmscriptenOpus> {
  let loading = modules.get(file);
  if (!loading) {
    const mod = require(`opus-encdec/dist/${file}`) as EmscriptenOpus;
    loading = mod.isReady
      ? Promise.resolve(mod)
      : new Promise((resolve) => {
          mod.onready = () => resolve(mod);
        });
    modules.set(file, loading);
  }
  return loading;
}

/** Allocates `bytes` in the module heap, runs `fn`, frees. */
function withScratch<T>(mod: EmscriptenOpus, bytes: number, fn: (pointer: number) => T): T {
  const pointer = mod._malloc(bytes);
  try {
    return fn(pointer);
  } finally {
    mod._free(pointer);
  }
}

export class OpusDecoder {
  private constructor(
    private readonly mod: EmscriptenOpus,
    private readonly handle: number,
    readonly channels: number,
    private readonly input: number,
    private readonly output: number,
  ) {}

  static async create(channels: number): Promise<OpusDecoder> {
    const mod = await load('libopus-decoder.wasm.js');
    const handle = withScratch(mod, 4, (errorPointer) => {
      const h = mod._opus_decoder_create(OPUS_SAMPLE_RATE, channels, errorPointer);
      if (mod.HEAP32[errorPointer >> 2] !== 0) throw new Error('opus_decoder_create failed');
      return h;
    });
    // 120 ms is the longest Opus packet duration.
    const output = mod._malloc(FRAME_SAMPLES * 6 * channels * 4);
    return new OpusDecoder(mod, handle, channels, mod._malloc(MAX_PACKET_BYTES), output);
  }

  /** Interleaved float PCM of one packet, or an error string for a corrupt packet. */
  decode(packet: Uint8Array): Float32Array | string {
    if (packet.length > MAX_PACKET_BYTES) return 'packet too large';
    this.mod.HEAPU8.set(packet, this.input);
    const samples = this.mod._opus_decode_float(
      this.handle,
      this.input,
      packet.length,
      this.output,
      FRAME_SAMPLES * 6,
      0,
    );
    if (samples < 0) return `opus_decode_float error ${samples}`;
    const start = this.output >> 2;
    return this.mod.HEAPF32.slice(start, start + samples * this.channels);
  }

  destroy(): void {
    this.mod._opus_decoder_destroy(this.handle);
    this.mod._free(this.input);
    this.mod._free(this.output);
  }
}

export class OpusEncoder {
  private constructor(
    private readonly mod: EmscriptenOpus,
    private readonly handle: number,
    readonly channels: number,
    private readonly input: number,
    private readonly output: number,
  ) {}

  /** Opus Music as TS3AudioBot sends it: application "audio", 32 768 bit/s by default. */
  static async create(channels: number, bitrate = 32_768): Promise<OpusEncoder> {
    const mod = await load('libopus-encoder.wasm.js');
    const handle = withScratch(mod, 4, (errorPointer) => {
      const h = mod._opus_encoder_create(OPUS_SAMPLE_RATE, channels, OPUS_APPLICATION_AUDIO, errorPointer);
      if (mod.HEAP32[errorPointer >> 2] !== 0) throw new Error('opus_encoder_create failed');
      return h;
    });
    // opus_encoder_ctl is variadic: in WASM its arguments are passed through a pointer.
    withScratch(mod, 4, (args) => {
      mod.HEAP32[args >> 2] = bitrate;
      mod._opus_encoder_ctl(handle, OPUS_SET_BITRATE, args);
    });
    const input = mod._malloc(FRAME_SAMPLES * channels * 4);
    return new OpusEncoder(mod, handle, channels, input, mod._malloc(MAX_PACKET_BYTES));
  }

  /** Encodes one 20 ms frame of interleaved float PCM (960 samples per channel). */
  encode(pcm: Float32Array): Buffer {
    if (pcm.length !== FRAME_SAMPLES * this.channels)
      throw new Error('encode() takes exactly one 20 ms frame');
    this.mod.HEAPF32.set(pcm, this.input >> 2);
    const bytes = this.mod._opus_encode_float(
      this.handle,
      this.input,
      FRAME_SAMPLES,
      this.output,
      MAX_PACKET_BYTES,
    );
    if (bytes < 0) throw new Error(`opus_encode_float error ${bytes}`);
    return Buffer.from(this.mod.HEAPU8.slice(this.output, this.output + bytes));
  }

  destroy(): void {
    this.mod._opus_encoder_destroy(this.handle);
    this.mod._free(this.input);
    this.mod._free(this.output);
  }
}
