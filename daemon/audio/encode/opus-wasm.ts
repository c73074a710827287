/**
 * Loads opus-encdec's Emscripten builds of libopus (WASM) in Node and types the C functions we call.
 * Each build is loaded once per process; every encoder or decoder allocates its own state inside it.
 * The builds have a fixed 16 MB heap (no memory growth), so the heap views stay valid for good.
 */
import { createRequire } from 'node:module';

interface EmscriptenHeap {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPF32: Float32Array;
  _malloc(byteCount: number): number;
  _free(pointer: number): void;
}

export interface OpusEncoderModule extends EmscriptenHeap {
  _opus_encoder_create(
    sampleRateHz: number,
    channels: number,
    application: number,
    errorPointer: number,
  ): number;
  _opus_encoder_ctl(encoder: number, request: number, argumentPointer: number): number;
  _opus_encode_float(
    encoder: number,
    pcmPointer: number,
    samplesPerChannel: number,
    outputPointer: number,
    maxOutputBytes: number,
  ): number;
  _opus_encoder_destroy(encoder: number): void;
}

export interface OpusDecoderModule extends EmscriptenHeap {
  _opus_decoder_create(sampleRateHz: number, channels: number, errorPointer: number): number;
  _opus_decode_float(
    decoder: number,
    dataPointer: number,
    dataBytes: number,
    pcmPointer: number,
    maxSamplesPerChannel: number,
    decodeFec: number,
  ): number;
  _opus_decoder_destroy(decoder: number): void;
}

/** libopus constants (opus_defines.h). */
export const OPUS = {
  OK: 0,
  APPLICATION_AUDIO: 2049,
  SET_BITRATE_REQUEST: 4002,
  SET_SIGNAL_REQUEST: 4024,
  SIGNAL_MUSIC: 3002,
  SET_COMPLEXITY_REQUEST: 4010,
} as const;

const requireFromHere = createRequire(import.meta.url);
let encoderModule: OpusEncoderModule | undefined;
let decoderModule: OpusDecoderModule | undefined;

export function opusEncoderModule(): OpusEncoderModule {
  encoderModule ??= loadEmscriptenModule<OpusEncoderModule>('opus-encdec/dist/libopus-encoder.wasm.js');
  return encoderModule;
}

export function opusDecoderModule(): OpusDecoderModule {
  decoderModule ??= loadEmscriptenModule<OpusDecoderModule>('opus-encdec/dist/libopus-decoder.wasm.js');
  return decoderModule;
}

/**
 * The Node branch of these builds installs process-wide `uncaughtException` and `unhandledRejection`
 * handlers (the latter aborts the WASM runtime on any rejection anywhere in the process). We take
 * them out again, so loading a codec does not change how the daemon treats its own errors.
 */
function loadEmscriptenModule<T>(specifier: string): T {
  const uncaughtBefore = process.listeners('uncaughtException');
  const rejectionBefore = process.listeners('unhandledRejection');
  const loaded = requireFromHere(specifier) as T & { isReady?: boolean };
  for (const listener of process.listeners('uncaughtException')) {
    if (!uncaughtBefore.includes(listener)) process.removeListener('uncaughtException', listener);
  }
  for (const listener of process.listeners('unhandledRejection')) {
    if (!rejectionBefore.includes(listener)) process.removeListener('unhandledRejection', listener);
  }
  // Synchronous instantiation is what these builds do in Node; anything else means a changed package.
  if (loaded.isReady !== true) throw new Error(`${specifier} did not initialise synchronously`);
  return loaded;
}
