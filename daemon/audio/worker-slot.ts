/**
 * One player inside an audio worker: its gain, its Opus encoder and its current pipeline (an ffmpeg
 * child and the PCM it buffers), writing encoded frames into the player's FrameRing ahead of the clock.
 *
 * `fill()` runs whenever something may have changed: new PCM, the decoder's end, a control message,
 * and the main thread's doorbell after each tick. It tops the ring up to the lookahead, never further:
 * the lookahead is how far a volume change lags behind (3 frames, 60 ms, by default), and how long the
 * worker may fall behind before the player sends an underrun silence frame. After a tick the worker
 * tops all its rings up together, a frame deep at a time (`fillBreadthFirst`).
 *
 * A pipeline first buffers `prebufferFrames` of PCM (as the inline engine does), then says `ready`
 * once the ring holds the lookahead (or the end marker). When the decoder has exited and its PCM is
 * used up, the end marker goes into the ring behind the last frame.
 */
import { Readable } from 'node:stream';
import type { FromWorker, GainChange, ToWorker, WireInput } from './audio-worker-protocol';
import { Decoder } from './decoder';
import type { DecoderInput } from './decoder-input';
import { OpusEncoder } from './encoder';
import { FrameRing } from './frame-ring';
import { Gain } from './gain';
import { SAMPLES_PER_FRAME } from './pcm-format';

type OpenMessage = Extract<ToWorker, { type: 'open' }>;
type PlayMessage = Extract<ToWorker, { type: 'play' }>;

interface Running {
  generation: number;
  decoder: Decoder;
  prebufferFrames: number;
  /** The relayed bytes of a stream input; absent for URLs and files. */
  input: RelayedInput | undefined;
  started: boolean;
  /** Frames of this generation written so far: the next frame's sequence number. */
  sequence: number;
  endWritten: boolean;
  readySent: boolean;
}

export class WorkerSlot implements FillableSlot {
  private readonly ring: FrameRing;
  private readonly gain: Gain;
  private readonly encoder: OpusEncoder;
  private readonly lookaheadFrames: number;
  private readonly pcmFrame = new Int16Array(SAMPLES_PER_FRAME);
  private running: Running | undefined;

  constructor(
    private readonly id: number,
    open: OpenMessage,
    private readonly post: (message: FromWorker) => void,
  ) {
    this.ring = new FrameRing(open.ring);
    this.gain = new Gain({ volumePercent: open.volumePercent });
    if (open.duckPercent !== undefined) this.gain.duck(open.duckPercent);
    this.encoder = new OpusEncoder(open.encoder);
    this.lookaheadFrames = open.lookaheadFrames;
  }

  play(message: PlayMessage): void {
    this.stop();
    const generation = message.generation;
    const input = message.input.kind === 'stream' ? this.relayedInput(generation) : undefined;
    const decoder = new Decoder({
      ffmpegPath: message.ffmpegPath,
      input: decoderInput(message.input, input),
      seekSeconds: message.seekSeconds,
      stallMs: message.stallMs,
      ...(message.stopAtSeconds === undefined ? {} : { stopAtSeconds: message.stopAtSeconds }),
    });
    const running: Running = {
      generation,
      decoder,
      prebufferFrames: message.prebufferFrames,
      input,
      started: false,
      sequence: 0,
      endWritten: false,
      readySent: false,
    };
    this.running = running;
    const isCurrent = () => this.running === running;
    decoder.on('spawn', () => {
      if (isCurrent() && decoder.pid !== undefined)
        this.post({ type: 'spawn', slot: this.id, generation, pid: decoder.pid });
    });
    decoder.on('title', (title) => {
      if (isCurrent()) this.post({ type: 'title', slot: this.id, generation, title });
    });
    decoder.on('data', () => {
      if (isCurrent()) this.fill();
    });
    decoder.on('exit', (exit) => {
      if (decoder.pid !== undefined) this.post({ type: 'childGone', slot: this.id, pid: decoder.pid });
      if (!isCurrent() || exit.kind === 'killed') return;
      const producedNothing = running.sequence === 0 && decoder.pcm.exhausted;
      this.post({ type: 'exit', slot: this.id, generation, exit, producedNothing });
      this.fill();
    });
  }

  /** Bytes of a relayed stream input. */
  input(generation: number, chunk: Uint8Array | undefined): void {
    const running = this.running;
    if (running?.generation !== generation || !running.input) return;
    if (chunk) running.input.feed(chunk);
    else running.input.end();
  }

  stop(generation?: number): void {
    const running = this.running;
    if (!running || (generation !== undefined && running.generation !== generation)) return;
    this.running = undefined;
    running.decoder.kill();
  }

  changeGain(change: GainChange): void {
    if (change.op === 'volume') this.gain.setVolume(change.percent);
    else if (change.op === 'duck') this.gain.duck(change.percent);
    else this.gain.unduck();
  }

  close(): void {
    this.stop();
    this.encoder.destroy();
  }

  /** Tops the ring up to `depth` frames (the lookahead at most). */
  fill(depth = this.lookaheadFrames): void {
    const running = this.running;
    if (!running || running.endWritten) return;
    const { pcm } = running.decoder;
    if (!running.started) {
      if (pcm.framesAvailable < running.prebufferFrames && !pcm.hasEnded) return;
      running.started = true;
    }
    const target = Math.min(depth, this.lookaheadFrames);
    while (this.ring.size < target) {
      // Always a slot here: the ring holds fewer records than the lookahead, which is below its size.
      const slot = this.ring.reserve();
      if (!slot) break;
      const frame = pcm.readFrame(this.pcmFrame);
      if (frame) {
        this.gain.apply(frame);
        const length = this.encoder.encodeInto(frame, slot);
        this.ring.commit(running.generation, running.sequence++, 'audio', length);
        continue;
      }
      // Ended and used up: the end marker goes in behind the last frame.
      if (pcm.exhausted && running.decoder.exit) {
        if (this.ring.put(running.generation, running.sequence, 'end')) running.endWritten = true;
      }
      break;
    }
    if (!running.readySent && (running.sequence >= this.lookaheadFrames || running.endWritten)) {
      running.readySent = true;
      this.post({ type: 'ready', slot: this.id, generation: running.generation });
    }
  }

  /** A failure of this slot's own code (not ffmpeg's) ends its track with an error, not the worker. */
  fail(error: unknown): void {
    const running = this.running;
    if (!running) return;
    this.stop();
    const message = `audio worker failed: ${error instanceof Error ? error.message : String(error)}`;
    this.post({
      type: 'exit',
      slot: this.id,
      generation: running.generation,
      exit: { kind: 'failed', message, problem: 'decodeFailed' },
      producedNothing: true,
    });
  }

  private relayedInput(generation: number): RelayedInput {
    return new RelayedInput(
      () => this.post({ type: 'inputPause', slot: this.id, generation }),
      () => this.post({ type: 'inputResume', slot: this.id, generation }),
    );
  }
}

/** What `fillBreadthFirst` tops up: a WorkerSlot. */
export interface FillableSlot {
  fill(depth: number): void;
  fail(error: unknown): void;
}

/**
 * Tops every slot's ring up breadth first: each player's next frame before anyone's second, up to
 * `deepest` frames. After the worker was held up (descheduled on a busy machine, a long GC) every ring
 * has run low at once; filled one player after another, the catch-up of the first players would use up
 * the last ones' lookahead and starve them, while in rounds every player is a frame ahead again within
 * one frame's encoding per player. One slot's failure ends its own track only.
 */
export function fillBreadthFirst(slots: ReadonlyMap<number, FillableSlot>, deepest: number): void {
  for (let depth = 1; depth <= deepest; depth++)
    for (const slot of slots.values()) {
      // No closure per call, as `guarded` in audio-worker.ts takes: this runs per player and round.
      try {
        slot.fill(depth);
      } catch (error) {
        slot.fail(error);
      }
    }
}

/**
 * A stream input's bytes, relayed from the main thread (where the stream and the process behind it
 * live) into ffmpeg's stdin here. When ffmpeg falls behind, the main thread is asked to pause the
 * stream, and to resume it once ffmpeg reads again: the same backpressure `pipe()` gives.
 */
class RelayedInput extends Readable {
  private upstreamPaused = false;

  constructor(
    private readonly pauseUpstream: () => void,
    private readonly resumeUpstream: () => void,
  ) {
    super();
  }

  feed(chunk: Uint8Array): void {
    if (this.push(chunk) || this.upstreamPaused) return;
    this.upstreamPaused = true;
    this.pauseUpstream();
  }

  end(): void {
    this.push(null);
  }

  override _read(): void {
    if (!this.upstreamPaused) return;
    this.upstreamPaused = false;
    this.resumeUpstream();
  }
}

function decoderInput(input: WireInput, relayed: RelayedInput | undefined): DecoderInput {
  if (input.kind !== 'stream') return input;
  if (!relayed) throw new Error('a stream input needs its relay');
  return { kind: 'stream', stream: relayed, ...(input.rawFormat ? { rawFormat: input.rawFormat } : {}) };
}
