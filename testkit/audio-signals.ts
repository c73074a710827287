/**
 * Audio signals for the audio tests, the TS3 tests and the benches (test code, never imported by the
 * daemon): generate audio with ffmpeg's lavfi sources or as PCM frames, collect what a player sends,
 * decode it, and measure tones and levels. ffmpeg is found the way the daemon finds it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { locateDecoder, locateFfmpeg } from '../daemon/audio/decode/ffmpeg-locator';
import { OpusDecoder } from '../daemon/audio/encode/opus-decoder';
import { LoudnessMeter } from '../daemon/audio/loudness/loudness-meter';
import {
  FRAME_SECONDS,
  PCM_FORMAT,
  SAMPLES_PER_CHANNEL_PER_FRAME,
  SAMPLES_PER_FRAME,
} from '../daemon/audio/pcm-format';
import type { VoiceSink } from '../daemon/audio/voice-sink';
import { loadConfig } from '../shared/config';

/** Where the daemon would look for its decoder and ffmpeg: the test entry's configuration. */
export const FFMPEG_LOCATION = loadConfig(process.env).ffmpeg;

/** The ffmpeg the daemon would run (FFMPEG_PATH, then ffmpeg-static, then PATH); tests cannot run without one. */
export const FFMPEG = locatedFfmpeg();

/** What a bot decodes tracks with (the project's pcm-decoder when built, else that ffmpeg), and its process name. */
export const DECODER = locatedFfmpeg(locateDecoder);
export const DECODER_NAME = basename(DECODER).slice(0, 15);

function locatedFfmpeg(locate = locateFfmpeg): string {
  const found = locate(FFMPEG_LOCATION);
  if (!found.ok) throw new Error(`the audio tests need ffmpeg: ${found.error}`);
  return found.value;
}

export interface TempDir {
  path: string;
  file(name: string): string;
  remove(): void;
}

export function makeTempDir(prefix = 'audio-test-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/**
 * The files the decoder and player tests play, in a new temporary folder: `tone.wav` (1 s at 440 Hz),
 * `two-tones.flac` (4 s of 440 Hz that turns 880 Hz at 3 s, to tell where a seek landed), `long.wav`
 * (20 s, enough to fill the PCM buffer and outlast any test), `frame-index.wav` (4 s in which every
 * 20 ms frame names its own index, see `frameIndices`) and `corrupt.mp3` (bytes ffmpeg rejects).
 */
export function renderTestFiles(): TempDir {
  const dir = makeTempDir();
  renderAudio(dir.file('tone.wav'), sineExpression(440), 1);
  renderAudio(dir.file('two-tones.flac'), '0.5*sin(2*PI*if(lt(t,3),440,880)*t)', 4);
  renderAudio(dir.file('long.wav'), sineExpression(440), 20);
  renderAudio(
    dir.file('frame-index.wav'),
    `0.5*sin(2*PI*(${INDEX_BASE_HZ}+${INDEX_STEP_HZ}*mod(floor(t*50),${INDEX_TONES}))*t)`,
    4,
  );
  writeFileSync(dir.file('corrupt.mp3'), Buffer.alloc(4096, 0x5a));
  return dir;
}

/**
 * Renders an `aevalsrc` expression (t in seconds) to a file, e.g.
 * `0.5*sin(2*PI*440*t)`, at 48 kHz stereo; the container follows the file extension.
 */
export function renderAudio(path: string, expression: string, durationSeconds: number): void {
  // Quoted: the expressions contain commas, which would otherwise split the filter's options.
  const source = `aevalsrc='${expression}':s=${PCM_FORMAT.sampleRateHz}:d=${durationSeconds}:c=stereo`;
  const run = spawnSync(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    path,
  ]);
  if (run.status !== 0) throw new Error(`ffmpeg could not render ${path}: ${run.stderr.toString()}`);
}

/** A sine of `frequencyHz` at `amplitude` (0-1 of full scale). */
function sineExpression(frequencyHz: number, amplitude = 0.5): string {
  return `${amplitude}*sin(2*PI*${frequencyHz}*t)`;
}

/** `seconds` of a sine as 20 ms interleaved stereo frames, the input `OpusEncoder` takes. */
export function sineFrames(frequencyHz: number, seconds: number, amplitude = 0.5): Int16Array[] {
  const frames: Int16Array[] = [];
  const count = Math.round(seconds / FRAME_SECONDS);
  for (let f = 0; f < count; f++) {
    const frame = new Int16Array(SAMPLES_PER_FRAME);
    for (let i = 0; i < SAMPLES_PER_CHANNEL_PER_FRAME; i++) {
      const n = f * SAMPLES_PER_CHANNEL_PER_FRAME + i;
      const sample = Math.round(
        amplitude * 32767 * Math.sin((2 * Math.PI * frequencyHz * n) / PCM_FORMAT.sampleRateHz),
      );
      frame[2 * i] = sample;
      frame[2 * i + 1] = sample;
    }
    frames.push(frame);
  }
  return frames;
}

/** What a sink was told, in order: each voice frame, and each end of voice. */
export type SinkEvent = { kind: 'voice'; frame: Uint8Array } | { kind: 'end' };

export class CollectingSink implements VoiceSink {
  readonly events: SinkEvent[] = [];

  sendVoice(opusFrame: Uint8Array): void {
    // A copy: the frame is only lent for the call (voice-sink.ts).
    this.events.push({ kind: 'voice', frame: opusFrame.slice() });
  }

  endVoice(): void {
    this.events.push({ kind: 'end' });
  }

  get voiceFrames(): Uint8Array[] {
    return this.events.flatMap((event) => (event.kind === 'voice' ? [event.frame] : []));
  }
}

export function isSilenceFrame(frame: Uint8Array): boolean {
  return frame.length === 3 && frame[0] === 0xf8 && frame[1] === 0xff && frame[2] === 0xfe;
}

/** Decodes Opus frames and returns the left channel as floats in [-1, 1]. */
export function decodeToMono(frames: Uint8Array[]): Float64Array {
  const decoder = new OpusDecoder();
  try {
    const pcm = frames.map((frame) => {
      const decoded = decoder.decode(frame);
      if (!decoded.ok) throw new Error(decoded.error);
      return decoded.value;
    });
    const mono = new Float64Array(pcm.reduce((sum, frame) => sum + frame.length / 2, 0));
    let offset = 0;
    for (const frame of pcm) {
      for (let i = 0; i < frame.length; i += 2) mono[offset++] = (frame[i] ?? 0) / 32768;
    }
    return mono;
  } finally {
    decoder.destroy();
  }
}

/** Left channel of interleaved Int16 stereo PCM as floats in [-1, 1]. */
export function leftChannel(pcm: Int16Array): Float64Array {
  const mono = new Float64Array(pcm.length / 2);
  for (let i = 0; i < mono.length; i++) mono[i] = (pcm[i * 2] ?? 0) / 32768;
  return mono;
}

/** Frequency of a clean tone from its rising zero crossings. */
export function estimateFrequencyHz(mono: Float64Array, sampleRateHz = PCM_FORMAT.sampleRateHz): number {
  let first = -1;
  let last = -1;
  let crossings = 0;
  for (let i = 1; i < mono.length; i++) {
    if ((mono[i - 1] ?? 0) < 0 && (mono[i] ?? 0) >= 0) {
      if (first < 0) first = i;
      last = i;
      crossings++;
    }
  }
  return crossings < 2 ? 0 : ((crossings - 1) * sampleRateHz) / (last - first);
}

/** Relative power of one frequency (Goertzel), for telling two tones apart. */
export function tonePower(
  mono: Float64Array,
  frequencyHz: number,
  sampleRateHz = PCM_FORMAT.sampleRateHz,
): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequencyHz) / sampleRateHz);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of mono) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  return (
    (previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious) /
    mono.length
  );
}

/**
 * The strongest frequency between 50 Hz and 4 kHz in one second from the middle of `mono`: a 5 Hz
 * scan, then a 0.5 Hz refinement around the peak. Unlike `estimateFrequencyHz` it holds up when the
 * tone has gaps or clicks, as audio that crossed a network may have.
 */
export function dominantFrequencyHz(mono: Float64Array, sampleRateHz = PCM_FORMAT.sampleRateHz): number {
  const start = Math.max(0, Math.floor(mono.length / 2 - sampleRateHz / 2));
  const window = mono.subarray(start, start + sampleRateHz);
  const peak = (fromHz: number, toHz: number, stepHz: number) => {
    let best = fromHz;
    let bestPower = -1;
    for (let frequencyHz = fromHz; frequencyHz <= toHz; frequencyHz += stepHz) {
      const power = tonePower(window, frequencyHz, sampleRateHz);
      if (power > bestPower) {
        bestPower = power;
        best = frequencyHz;
      }
    }
    return best;
  };
  const coarse = peak(50, 4000, 5);
  return peak(coarse - 5, coarse + 5, 0.5);
}

/** frame-index.wav: frame k plays INDEX_BASE_HZ + INDEX_STEP_HZ × (k mod INDEX_TONES). */
const INDEX_BASE_HZ = 600;
const INDEX_STEP_HZ = 150;
export const INDEX_TONES = 16;
/** Samples by which libopus's decoded output trails its input (its 6.5 ms lookahead at 48 kHz). */
export const OPUS_DELAY_SAMPLES = 312;

/**
 * The index (mod INDEX_TONES) each decoded 20 ms frame of frame-index.wav carries, from Opus frames
 * decoded in the order sent: so a frame sent twice or dropped shows as a step other than +1. Each
 * frame's tone is read from its middle, clear of the clicks where the tone changes.
 */
export function frameIndices(mono: Float64Array): number[] {
  const frameSamples = SAMPLES_PER_CHANNEL_PER_FRAME;
  const margin = 160;
  const indices: number[] = [];
  for (let start = OPUS_DELAY_SAMPLES; start + frameSamples <= mono.length; start += frameSamples) {
    const window = mono.subarray(start + margin, start + frameSamples - margin);
    let best = 0;
    let bestPower = -1;
    for (let index = 0; index < INDEX_TONES; index++) {
      const power = tonePower(window, INDEX_BASE_HZ + INDEX_STEP_HZ * index);
      if (power > bestPower) {
        bestPower = power;
        best = index;
      }
    }
    indices.push(best);
  }
  return indices;
}

/**
 * How far a stretch that should be one steady sine of `frequencyHz` strays from it: in each block of
 * `blockSamples` a sine of that frequency is fitted (amplitude and phase, least squares), and the
 * worst block's misfit is returned as residual RMS over fitted RMS. A click, a dropout or a jump in
 * phase (audio from another moment spliced in) shows as a large misfit; a slow gain ramp does not.
 */
export function worstSineMisfit(
  mono: Float64Array,
  frequencyHz: number,
  blockSamples = 240,
  sampleRateHz = PCM_FORMAT.sampleRateHz,
): number {
  const omega = (2 * Math.PI * frequencyHz) / sampleRateHz;
  let worst = 0;
  for (let start = 0; start + blockSamples <= mono.length; start += blockSamples) {
    let ss = 0;
    let cc = 0;
    let sc = 0;
    let ys = 0;
    let yc = 0;
    for (let i = start; i < start + blockSamples; i++) {
      const sin = Math.sin(omega * i);
      const cos = Math.cos(omega * i);
      const y = mono[i] ?? 0;
      ss += sin * sin;
      cc += cos * cos;
      sc += sin * cos;
      ys += y * sin;
      yc += y * cos;
    }
    const det = ss * cc - sc * sc;
    const a = (ys * cc - yc * sc) / det;
    const b = (yc * ss - ys * sc) / det;
    let residual = 0;
    let fitted = 0;
    for (let i = start; i < start + blockSamples; i++) {
      const fit = a * Math.sin(omega * i) + b * Math.cos(omega * i);
      residual += ((mono[i] ?? 0) - fit) ** 2;
      fitted += fit * fit;
    }
    worst = Math.max(worst, Math.sqrt(residual / Math.max(fitted, 1e-12)));
  }
  return worst;
}

export function rms(mono: Float64Array): number {
  let sum = 0;
  for (const sample of mono) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, mono.length));
}

export function toDb(ratio: number): number {
  return 20 * Math.log10(ratio);
}

/**
 * The BS.1770 loudness (LUFS) of a decoded channel heard in both ears, as a listener's meter reads
 * what a bot sent; -Infinity for silence.
 */
export function loudnessLufs(mono: Float64Array): number {
  const bytes = Buffer.alloc(mono.length * 4);
  for (let i = 0; i < mono.length; i++) {
    const sample = Math.max(-32768, Math.min(32767, Math.round((mono[i] ?? 0) * 32767)));
    bytes.writeInt16LE(sample, i * 4);
    bytes.writeInt16LE(sample, i * 4 + 2);
  }
  const meter = new LoudnessMeter();
  meter.addBytes(bytes);
  return meter.integrated() ?? Number.NEGATIVE_INFINITY;
}

/** The highest sample of a decoded channel, dBFS. */
export function peakDbfs(mono: Float64Array): number {
  let peak = 0;
  for (const sample of mono) peak = Math.max(peak, Math.abs(sample));
  return toDb(peak);
}
