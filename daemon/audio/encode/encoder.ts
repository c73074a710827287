/**
 * Opus encoding for the voice path: 48 kHz stereo, 20 ms frames, application AUDIO, signal MUSIC,
 * 96 kbps, complexity 5 by default. 96 kbps is where stereo music at 48 kHz becomes hard to tell from
 * the source in listening tests (Opus recommends 96-128 kbps for stereo music), while staying well
 * inside a voice server's per-client bandwidth.
 *
 * Encoders, in the order an encoder takes the first that loads:
 * - `system`: build/opus-encoder.node (native/opus-encoder.c), a small Node-API addon on the system's
 *   libopus that `make` builds (scripts/build-native.sh). Each encoder has its own state and writes its
 *   packet straight into the caller's memory, so the audio workers encode in parallel, into their rings.
 * - `native`: @evan/opus, libopus as a prebuilt native addon inside the npm package (no build step).
 *   Its one static output buffer is shared by every thread of the process, so its encodes take a
 *   process-wide lock (encoder-lock.ts) and the workers encode one frame at a time.
 * - `wasm`: @evan/opus's WASM build, where neither loads (or the configuration asks for it).
 * The two native ones take the same CPU per frame (the same libopus); bench/audio-bench.ts measures
 * them against opus-encdec's WASM libopus (what the daemon used before): a bit over half its CPU.
 *
 * Complexity 5, not libopus's default 10: at 96 kbps music is coded by CELT alone, where complexity
 * 8-10 cost the same, 7 and above add the tonality analysis (it steers VBR toward tonal passages and
 * the bandwidth choice) and 8 and above a second MDCT on transient frames; 5 keeps the pitch
 * pre-filter (harmonic music) and the transient detection, drops those two, and saves about 40 % of the
 * encoding CPU. The bench prints the CPU and the signal-to-noise ratio per complexity.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MAX_OPUS_FRAME_BYTES } from '../engine/frame-ring';
import { PCM_FORMAT, SAMPLES_PER_FRAME } from '../pcm-format';
import { withEncoderLock } from './encoder-lock';
import { OPUS } from './opus-wasm';

export const OPUS_MUSIC_BITRATE_BPS = 96_000;
export const DEFAULT_OPUS_COMPLEXITY = 5;

export type OpusBuild = 'system' | 'native' | 'wasm';
/** From the most to the least wanted. */
const BUILDS: readonly OpusBuild[] = ['system', 'native', 'wasm'];

/** One encoder of whichever build: writes a packet into `out` and returns its length. */
interface BuildEncoder {
  encodeInto(pcm: Int16Array, out: Uint8Array): number;
  drop(): void;
}

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

/** build/opus-encoder.node's exports (native/opus-encoder.c). */
interface SystemAddon {
  create(bitrateBps: number, complexity: number): object;
  encodeInto(encoder: object, pcm: Int16Array, out: Uint8Array): number;
}

const requireHere = createRequire(import.meta.url);
/** Where `make` builds native/opus-encoder.c. */
export const SYSTEM_ADDON_PATH = fileURLToPath(new URL('../../../build/opus-encoder.node', import.meta.url));
const EVAN_MODULES = {
  native: '@evan/opus/node/index.js',
  wasm: '@evan/opus/wasm/index.js',
} as const;
const loaded = new Map<string, unknown>();

/** The module at `path`, or undefined where it does not load (not built, no binary for this platform). */
function load<T>(path: string): T | undefined {
  if (!loaded.has(path)) {
    try {
      loaded.set(path, requireHere(path));
    } catch {
      loaded.set(path, undefined);
    }
  }
  return loaded.get(path) as T | undefined;
}

const systemAddon = () => load<SystemAddon>(SYSTEM_ADDON_PATH);
const evanClass = (build: 'native' | 'wasm') =>
  load<{ Encoder: RawEncoderClass }>(EVAN_MODULES[build])?.Encoder;
const builds: Record<OpusBuild, () => boolean> = {
  system: () => systemAddon() !== undefined,
  native: () => evanClass('native') !== undefined,
  wasm: () => evanClass('wasm') !== undefined,
};

/**
 * The build an encoder asked for `wanted` gets: that one where it loads, else the next one down the
 * list (the configuration asks for `wasm` with `OPUS_FORCE_WASM`, the bench for each in turn).
 */
export function opusBuild(wanted: OpusBuild = 'system'): OpusBuild {
  return BUILDS.slice(BUILDS.indexOf(wanted)).find((build) => builds[build]()) ?? 'wasm';
}

/**
 * Loads @evan/opus's native build in the calling thread, where it then stays until the thread ends.
 * @evan/opus 1.0.3's addon brings the whole process down (SIGSEGV) when the last thread that loaded it
 * ends, as a worker started by another worker does; so every thread that starts threads which encode
 * holds it first (the audio worker pool's thread, and the main thread under the daemon's thread).
 */
export function holdNativeOpus(): void {
  evanClass('native');
}

export interface OpusEncoderOptions {
  bitrateBps?: number;
  /** 0-10; see the header for what the default gives up. */
  complexity?: number;
  /** The build wanted (the best that loads by default; `wasm` is the configuration's other choice). */
  build?: OpusBuild;
}

export class OpusEncoder {
  readonly build: OpusBuild;
  private encoder: BuildEncoder | undefined;
  /** Where `encode` has a packet written before copying it out. */
  private readonly scratch = new Uint8Array(MAX_OPUS_FRAME_BYTES);

  constructor(options: OpusEncoderOptions = {}) {
    this.build = opusBuild(options.build);
    const bitrateBps = options.bitrateBps ?? OPUS_MUSIC_BITRATE_BPS;
    const complexity = options.complexity ?? DEFAULT_OPUS_COMPLEXITY;
    this.encoder =
      this.build === 'system'
        ? systemEncoder(bitrateBps, complexity)
        : evanEncoder(this.build, bitrateBps, complexity);
  }

  /** Encodes one 20 ms interleaved stereo frame (1920 samples) into a new Opus packet. */
  encode(pcm: Int16Array): Uint8Array {
    return this.scratch.slice(0, this.encodeInto(pcm, this.scratch));
  }

  /** Encodes one frame into `out` (room for MAX_OPUS_FRAME_BYTES) and returns the packet's length. */
  encodeInto(pcm: Int16Array, out: Uint8Array): number {
    const encoder = this.encoder;
    if (!encoder) throw new Error('OpusEncoder used after destroy()');
    if (pcm.length !== SAMPLES_PER_FRAME)
      throw new Error(`expected ${SAMPLES_PER_FRAME} samples, got ${pcm.length}`);
    return encoder.encodeInto(pcm, out);
  }

  /** Lets the encoder go (the WASM build frees its state now, the native ones when collected). */
  destroy(): void {
    this.encoder?.drop();
    this.encoder = undefined;
  }
}

function systemEncoder(bitrateBps: number, complexity: number): BuildEncoder {
  const addon = systemAddon();
  if (!addon) throw new Error(`${SYSTEM_ADDON_PATH} does not load`);
  const handle = addon.create(bitrateBps, complexity);
  return { encodeInto: (pcm, out) => addon.encodeInto(handle, pcm, out), drop: () => {} };
}

function evanEncoder(build: 'native' | 'wasm', bitrateBps: number, complexity: number): BuildEncoder {
  const Encoder = evanClass(build);
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
  const copyOut = (pcm: Int16Array, out: Uint8Array) => {
    const packet = encoder.encode(pcm);
    out.set(packet);
    return packet.length;
  };
  return {
    // The native build copies the packet out of its shared buffer before the lock is let go.
    encodeInto: build === 'native' ? (pcm, out) => withEncoderLock(() => copyOut(pcm, out)) : copyOut,
    drop: () => encoder.drop?.(),
  };
}
