/**
 * Opus encoding for the voice path: 48 kHz stereo, 20 ms frames, application AUDIO, signal MUSIC,
 * 96 kbps, complexity 5 by default. 96 kbps is where stereo music at 48 kHz becomes hard to tell from
 * the source in listening tests (Opus recommends 96-128 kbps for stereo music), while staying well
 * inside a voice server's per-client bandwidth.
 *
 * Encoders, the first that loads: our addon over the system's libopus (build/opus-encoder.node, from
 * native/opus-encoder.c), with no lock between threads; @evan/opus's prebuilt native addon, whose one
 * static output buffer is shared by every thread of the process, hence encoder-lock.ts around it;
 * @evan/opus's WASM build. The same libopus version gives the same packets; bench/audio-bench.ts
 * measures the builds against opus-encdec's WASM libopus on the same PCM.
 *
 * Complexity 5, not libopus's default 10: at 96 kbps music is coded by CELT alone, where complexity
 * 8-10 cost the same, 7 and above add the tonality analysis (it steers VBR toward tonal passages and
 * the bandwidth choice) and 8 and above a second MDCT on transient frames; 5 keeps the pitch
 * pre-filter (harmonic music) and the transient detection, drops those two, and saves about 40 % of the
 * encoding CPU. The bench prints the CPU and the signal-to-noise ratio per complexity.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { withEncoderLock } from './encoder-lock';
import { OPUS } from './opus-wasm';
import { PCM_FORMAT, SAMPLES_PER_FRAME } from './pcm-format';

export const OPUS_MUSIC_BITRATE_BPS = 96_000;
export const DEFAULT_OPUS_COMPLEXITY = 5;

/** What the configuration asks for: `native` takes the first native encoder that loads. */
export type OpusBuild = 'native' | 'wasm';
/** What encodes: the system libopus through our addon, @evan/opus's native addon, or its WASM build. */
export type OpusEngine = 'libopus' | 'evan-native' | 'wasm';

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

/** build/opus-encoder.node (native/opus-encoder.c). */
interface LibopusAddon {
  create(bitrateBps: number, complexity: number): object;
  encode(encoder: object, pcm: Int16Array): Uint8Array;
  destroy(encoder: object): void;
}

const requireHere = createRequire(import.meta.url);
const ADDON_PATH = fileURLToPath(new URL('../../build/opus-encoder.node', import.meta.url));
const EVAN_MODULES: Record<Exclude<OpusEngine, 'libopus'>, string> = {
  'evan-native': '@evan/opus/node/index.js',
  wasm: '@evan/opus/wasm/index.js',
};
const loaded = new Map<OpusEngine, unknown>();

function load<T>(engine: OpusEngine): T | undefined {
  if (!loaded.has(engine)) {
    try {
      loaded.set(
        engine,
        engine === 'libopus'
          ? (requireHere(ADDON_PATH) as LibopusAddon)
          : (requireHere(EVAN_MODULES[engine]) as { Encoder: RawEncoderClass }).Encoder,
      );
    } catch {
      loaded.set(engine, undefined);
    }
  }
  return loaded.get(engine) as T | undefined;
}

/**
 * The engine an encoder asked for `wanted` gets: the first native one that loads (unless the WASM
 * build is asked for, `OPUS_FORCE_WASM`), the WASM build otherwise.
 */
export function opusEngine(wanted: OpusBuild = 'native'): OpusEngine {
  if (wanted === 'native') {
    if (load('libopus')) return 'libopus';
    if (load('evan-native')) return 'evan-native';
  }
  return 'wasm';
}

/**
 * Loads @evan/opus's native build in the calling thread, where it then stays until the thread ends,
 * unless our own addon takes its place. @evan/opus 1.0.3's addon brings the whole process down
 * (SIGSEGV) when the last thread that loaded it ends, as a worker started by another worker does; so
 * every thread that starts threads which encode holds it first (the audio worker pool's thread, and
 * the main thread under the daemon's thread).
 */
export function holdNativeOpus(): void {
  if (opusEngine() === 'evan-native') load('evan-native');
}

export interface OpusEncoderOptions {
  bitrateBps?: number;
  /** 0-10; see the header for what the default gives up. */
  complexity?: number;
  /** `wasm` encodes with the WASM build even where the native addon loads (the configuration's choice). */
  build?: OpusBuild;
}

export class OpusEncoder {
  readonly engine: OpusEngine;
  private encodeFrame: ((pcm: Int16Array) => Uint8Array) | undefined;
  private release: () => void;

  constructor(options: OpusEncoderOptions = {}) {
    this.engine = opusEngine(options.build);
    const bitrateBps = options.bitrateBps ?? OPUS_MUSIC_BITRATE_BPS;
    const complexity = options.complexity ?? DEFAULT_OPUS_COMPLEXITY;
    if (this.engine === 'libopus') {
      const addon = load<LibopusAddon>('libopus')!;
      const encoder = addon.create(bitrateBps, complexity);
      this.encodeFrame = (pcm) => addon.encode(encoder, pcm);
      this.release = () => addon.destroy(encoder);
      return;
    }
    const Encoder = load<RawEncoderClass>(this.engine);
    if (!Encoder) throw new Error('@evan/opus has neither a native nor a WASM build here');
    const encoder = new Encoder({
      channels: PCM_FORMAT.channels,
      sample_rate: PCM_FORMAT.sampleRateHz,
      application: 'audio',
    });
    // libopus's request numbers, the same in every build (opus_defines.h).
    encoder.ctl(OPUS.SET_BITRATE_REQUEST, bitrateBps);
    encoder.ctl(OPUS.SET_SIGNAL_REQUEST, OPUS.SIGNAL_MUSIC);
    encoder.ctl(OPUS.SET_COMPLEXITY_REQUEST, complexity);
    // @evan/opus's native build copies the packet out of its shared buffer before the lock is let go.
    this.encodeFrame =
      this.engine === 'evan-native'
        ? (pcm) => withEncoderLock(() => encoder.encode(pcm))
        : (pcm) => encoder.encode(pcm);
    this.release = () => encoder.drop?.();
  }

  /** Encodes one 20 ms interleaved stereo frame (1920 samples) into a new Opus packet. */
  encode(pcm: Int16Array): Uint8Array {
    if (!this.encodeFrame) throw new Error('OpusEncoder used after destroy()');
    if (pcm.length !== SAMPLES_PER_FRAME)
      throw new Error(`expected ${SAMPLES_PER_FRAME} samples, got ${pcm.length}`);
    return this.encodeFrame(pcm);
  }

  /** Lets the encoder go (libopus and WASM free their state now, @evan/opus's native one when collected). */
  destroy(): void {
    if (!this.encodeFrame) return;
    this.encodeFrame = undefined;
    this.release();
  }
}
