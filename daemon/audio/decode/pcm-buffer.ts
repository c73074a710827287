/**
 * Decoded PCM waiting to be played, between the ffmpeg child's stdout and the frame reader.
 * It signals when to stop reading the child (SPEC: pause at 960 KB buffered) and when to start again
 * (resume at 480 KB), so a fast decoder never holds more than ~5 s of audio in memory, and the gap
 * between the marks keeps the pipe from flapping on every chunk.
 */
import { FRAME_BYTES, SAMPLES_PER_FRAME } from '../pcm-format';

export const PCM_HIGH_WATER_BYTES = 960 * 1024;
export const PCM_LOW_WATER_BYTES = 480 * 1024;

export interface PcmBufferOptions {
  highWaterBytes?: number;
  lowWaterBytes?: number;
  /** Called once each time reading drops the buffer to the low-water mark after `write` returned false. */
  onDrain?: () => void;
}

export class PcmBuffer {
  private readonly chunks: Buffer[] = [];
  /** Bytes of `chunks[0]` already handed out. */
  private headOffset = 0;
  private bufferedBytes = 0;
  private ended = false;
  private aboveHighWater = false;
  private readonly highWaterBytes: number;
  private readonly lowWaterBytes: number;
  private readonly onDrain: (() => void) | undefined;

  constructor(options: PcmBufferOptions = {}) {
    this.highWaterBytes = options.highWaterBytes ?? PCM_HIGH_WATER_BYTES;
    this.lowWaterBytes = options.lowWaterBytes ?? PCM_LOW_WATER_BYTES;
    this.onDrain = options.onDrain;
  }

  get byteLength(): number {
    return this.bufferedBytes;
  }

  get framesAvailable(): number {
    return Math.floor(this.bufferedBytes / FRAME_BYTES);
  }

  /** True once the producer has ended and not even a partial frame is left. */
  get exhausted(): boolean {
    return this.ended && this.bufferedBytes === 0;
  }

  get hasEnded(): boolean {
    return this.ended;
  }

  /** Appends a chunk; returns false when the producer should pause until `onDrain`. */
  write(chunk: Buffer): boolean {
    if (this.ended) throw new Error('PcmBuffer.write after end');
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.bufferedBytes += chunk.length;
    }
    if (this.bufferedBytes >= this.highWaterBytes) this.aboveHighWater = true;
    return !this.aboveHighWater;
  }

  /** No more data will come; a trailing partial frame is still read out, padded with silence. */
  end(): void {
    this.ended = true;
  }

  /**
   * The next 20 ms frame as interleaved samples, or undefined when a whole frame is not buffered yet.
   * After `end()`, the last partial frame comes out zero-padded so a track's final samples are heard.
   * Pass `target` to fill a reused frame: at 50 frames a second per bot, fresh arrays are GC churn.
   */
  readFrame(target: Int16Array = new Int16Array(SAMPLES_PER_FRAME)): Int16Array | undefined {
    const frameBytes = this.bufferedBytes >= FRAME_BYTES ? FRAME_BYTES : this.ended ? this.bufferedBytes : 0;
    if (frameBytes === 0) return undefined;
    const targetBytes = new Uint8Array(target.buffer, target.byteOffset, FRAME_BYTES);
    this.copyOut(targetBytes, frameBytes);
    if (frameBytes < FRAME_BYTES) targetBytes.fill(0, frameBytes);
    if (this.aboveHighWater && this.bufferedBytes <= this.lowWaterBytes) {
      this.aboveHighWater = false;
      this.onDrain?.();
    }
    return target;
  }

  /**
   * The frame `readFrame` would answer next, copied into `target` without taking it (the loudness
   * limiter looks a frame ahead); undefined when a whole frame is not buffered yet.
   */
  peekFrame(target: Int16Array): Int16Array | undefined {
    const frameBytes = this.bufferedBytes >= FRAME_BYTES ? FRAME_BYTES : this.ended ? this.bufferedBytes : 0;
    if (frameBytes === 0) return undefined;
    const targetBytes = new Uint8Array(target.buffer, target.byteOffset, FRAME_BYTES);
    let written = 0;
    let offset = this.headOffset;
    for (const chunk of this.chunks) {
      const take = Math.min(frameBytes - written, chunk.length - offset);
      chunk.copy(targetBytes, written, offset, offset + take);
      written += take;
      offset = 0;
      if (written === frameBytes) break;
    }
    targetBytes.fill(0, frameBytes);
    return target;
  }

  private copyOut(target: Uint8Array, byteCount: number): void {
    let written = 0;
    while (written < byteCount) {
      const head = this.chunks[0];
      if (!head) break;
      const take = Math.min(byteCount - written, head.length - this.headOffset);
      head.copy(target, written, this.headOffset, this.headOffset + take);
      written += take;
      this.headOffset += take;
      if (this.headOffset === head.length) {
        this.chunks.shift();
        this.headOffset = 0;
      }
    }
    this.bufferedBytes -= written;
  }
}
