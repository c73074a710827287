/**
 * Opus encoding for the voice path: 48 kHz stereo, 20 ms frames, application AUDIO, signal MUSIC,
 * 96 kbps, complexity 5 by default. 96 kbps is where stereo music at 48 kHz becomes hard to tell from
 * the source in listening tests (Opus recommends 96-128 kbps for stereo music), while staying well
 * inside a voice server's per-client bandwidth.
 *
 * Encoder: @evan/opus, libopus as a prebuilt native addon shipped inside the npm package (no build
 * step; on a platform it has no binary for it falls back to its own WASM build). bench/audio-bench.ts
 * measures it against opus-encdec's WASM libopus (what the daemon used before) on the same PCM: the
 * native build takes a bit over half the CPU per frame. Its one static output buffer is shared by
 * every thread of the process, hence encoder-lock.ts.
 *
 * Complexity 5, not libopus's default 10: at 96 kbps music is coded by CELT alone, where complexity
 * 8-10 cost the same, 7 and above add the tonality analysis (it steers VBR toward tonal passages and
 * the bandwidth choice) and 8 and above a second MDCT on transient frames; 5 keeps the pitch
 * pre-filter (harmonic music) and the transient detection, drops those two, and saves about 40 % of the
 * encoding CPU. The bench prints the CPU and the signal-to-noise ratio per complexity.
 */
import { createRequire } from 'node:module';
import { withEncoderLock } from './encoder-lock';
import { OPUS } from './opus-wasm';
import { PCM_FORMAT, SAMPLES_PER_FRAME } from './pcm-format';

export const OPUS_MUSIC_BITRATE_BPS = 96_000;
export const DEFAULT_OPUS_COMPLEXITY = 5;

export type OpusBuild = 'native' | 'wasm';

/** The raw encoder class of either build of @evan/opus (what its own `Encoder` wraps). */
interface RawEncoder {
  ctl(request: number, value?: number): number;
  encode(pcm: ArrayBufferView): Uint8Array;
  drop?(): void;
}
type RawEncoderClass = new (options: {
  channels: number;
  sample_rate: number;
  application: 'audio';
}) => RawEncoder;

const requireHere = createRequire(import.meta.url);
const BUILD_MODULES: Record<OpusBuild, string> = {
  native: '@evan/opus/node/index.js',
  wasm: '@evan/opus/wasm/index.js',
};
const loaded = new Map<OpusBuild, RawEncoderClass | undefined>();

function encoderClass(build: OpusBuild): RawEncoderClass | undefined {
  if (!loaded.has(build)) {
    try {
      loaded.set(build, (requireHere(BUILD_MODULES[build]) as { Encoder: RawEncoderClass }).Encoder);
    } catch {
      loaded.set(build, undefined);
    }
  }
  return loaded.get(build);
}

/**
 * The build an encoder asked for `wanted` gets: the native addon where it loads (unless the WASM one
 * is asked for, `OPUS_FORCE_WASM`), the WASM build otherwise.
 */
export function opusBuild(wanted: OpusBuild = 'native'): OpusBuild {
  return wanted === 'native' && encoderClass('native') ? 'native' : 'wasm';
}

/**
 * Loads the native build in the calling thread, where it then stays until the thread ends. @evan/opus
 * 1.0.3's addon brings the whole process down (SIGSEGV) when the last thread that loaded it ends, as a
 * worker started by another worker does; so every thread that starts threads which encode holds it
 * first (the audio worker pool's thread, and the main thread under the daemon's thread).
 */
export function holdNativeOpus(): void {
  encoderClass('native');
}

export interface OpusEncoderOptions {
  bitrateBps?: number;
  /** 0-10; see the header for what the default gives up. */
  complexity?: number;
  /** `wasm` encodes with the WASM build even where the native addon loads (the configuration's choice). */
  build?: OpusBuild;
}

export class OpusEncoder {
  readonly build: OpusBuild;
  private encoder: RawEncoder | undefined;

  constructor(options: OpusEncoderOptions = {}) {
    this.build = opusBuild(options.build);
    const Encoder = encoderClass(this.build);
    if (!Encoder) throw new Error('@evan/opus has neither a native nor a WASM build here');
    const encoder = new Encoder({
      channels: PCM_FORMAT.channels,
      sample_rate: PCM_FORMAT.sampleRateHz,
      application: 'audio',
    });
    // libopus's request numbers, the same in every build (opus_defines.h).
    encoder.ctl(OPUS.SET_BITRATE_REQUEST, options.bitrateBps ?? OPUS_MUSIC_BITRATE_BPS);
    encoder.ctl(OPUS.SET_SIGNAL_REQUEST, OPUS.SIGNAL_MUSIC);
    encoder.ctl(OPUS.SET_COMPLEXITY_REQUEST, options.complexity ?? DEFAULT_OPUS_COMPLEXITY);
    this.encoder = encoder;
  }

  /** Encodes one 20 ms interleaved stereo frame (1920 samples) into a new Opus packet. */
  encode(pcm: Int16Array): Uint8Array {
    const encoder = this.encoder;
    if (!encoder) throw new Error('OpusEncoder used after destroy()');
    if (pcm.length !== SAMPLES_PER_FRAME)
      throw new Error(`expected ${SAMPLES_PER_FRAME} samples, got ${pcm.length}`);
    // The native build copies the packet out of its shared buffer before the lock is let go.
    return this.build === 'native' ? withEncoderLock(() => encoder.encode(pcm)) : encoder.encode(pcm);
  }

  /** Lets the encoder go (the WASM build frees its state now, the native one when collected). */
  destroy(): void {
    this.encoder?.drop?.();
    this.encoder = undefined;
  }
}
