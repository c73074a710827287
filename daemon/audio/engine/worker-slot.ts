/**
 * One player inside an audio worker: its gain, its Opus encoder and its current pipeline (an ffmpeg
 * child and the PCM it buffers), writing encoded frames into the player's FrameRing ahead of the clock.
 *
 * `fill()` runs whenever something may have changed: new PCM, the decoder's end, a control message,
 * and the main thread's doorbell after each tick. It tops the ring up to the lookahead (counted in
 * frames the main thread has yet to send), never further: the lookahead is how long the worker may fall
 * behind before the player sends an underrun silence frame. After a tick the worker tops all its rings
 * up together, a frame deep at a time (`fillBreadthFirst`).
 *
 * A gain change does not wait behind the lookahead: the main thread names the first frame that must
 * sound at the new gain, and the worker encodes the frames from there again (`changeGain`), from the
 * PCM it keeps of them (FrameHistory), as a new gain epoch the main thread sends instead.
 *
 * A pipeline first buffers `prebufferFrames` of PCM, then says `ready`
 * once the ring holds the lookahead (or the end marker). When the decoder has exited and its PCM is
 * used up, the end marker goes into the ring behind the last frame.
 */
import { Readable } from 'node:stream';
import type { KnownLoudness } from '../../../shared/domain/loudness';
import { Decoder } from '../decode/decoder';
import type { DecoderInput } from '../decode/decoder-input';
import { OpusEncoder } from '../encode/encoder';
import { FrameHistory } from '../encode/frame-history';
import { Gain } from '../encode/gain';
import { LoudnessNormalizer } from '../loudness/loudness-normalizer';
import { SAMPLES_PER_FRAME } from '../pcm-format';
import type { FromWorker, GainChange, GainRewind, ToWorker, WireInput } from './audio-worker-protocol';
import { FrameRing, MAX_OPUS_FRAME_BYTES } from './frame-ring';
import type { LoudnessReport } from './track-pipeline';

type OpenMessage = Extract<ToWorker, { type: 'open' }>;
type PlayMessage = Extract<ToWorker, { type: 'play' }>;

/**
 * Frames before a rewind encoded again (their packets not sent) to prime the encoder. One restores its
 * memory of the signal; three also let its running estimates (band energies, pitch) settle back to
 * what the listener's decoder last had: measured, a click's misfit of 0.35 with none, 0.06-0.12 with
 * one, 0.03 (as without any rewind) with three.
 */
const PRIMING_FRAMES = 3;
/** Where the priming frames' packets go: they are not sent. */
const discardedPacket = new Uint8Array(MAX_OPUS_FRAME_BYTES);

/** A normalization gain that moved less than this since the last report is not reported again. */
const LOUDNESS_REPORT_STEP_DB = 0.5;

interface Running {
  generation: number;
  decoder: Decoder;
  /** Brings the track to the bot's loudness target; absent while normalization has not been on. */
  normalizer: LoudnessNormalizer | undefined;
  /** The track's own loudness figure, for a normalizer made when normalization is turned on mid-track. */
  known: KnownLoudness | undefined;
  /** The normalization last reported to the main thread. */
  reported: LoudnessReport | undefined;
  prebufferFrames: number;
  /** The relayed bytes of a stream input; absent for URLs and files. */
  input: RelayedInput | undefined;
  started: boolean;
  /** The next frame's sequence number. */
  sequence: number;
  /** The gain epoch the frames now written are in. */
  epoch: number;
  /** After a gain change's rewind, frames below this come from the history again, not the decoder. */
  replayUntil: number;
  /** A frame of this pipeline has been encoded. */
  produced: boolean;
  endWritten: boolean;
  readySent: boolean;
}

export class WorkerSlot implements FillableSlot {
  private readonly ring: FrameRing;
  private readonly gain: Gain;
  private readonly encoder: OpusEncoder;
  private readonly lookaheadFrames: number;
  private readonly pcmFrame = new Int16Array(SAMPLES_PER_FRAME);
  /** The frame after `pcmFrame`, which the loudness limiter looks at ahead. */
  private readonly nextPcmFrame = new Int16Array(SAMPLES_PER_FRAME);
  private readonly history: FrameHistory;
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
    // The frames a rewind encodes again (at most the lookahead) and the ones before them that prime it.
    this.history = new FrameHistory(open.lookaheadFrames + PRIMING_FRAMES + 1);
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
      normalizer:
        message.loudnessTargetLufs === undefined
          ? undefined
          : new LoudnessNormalizer({
              targetLufs: message.loudnessTargetLufs,
              ...(message.known ? { known: message.known } : {}),
            }),
      known: message.known,
      reported: undefined,
      prebufferFrames: message.prebufferFrames,
      input,
      started: false,
      sequence: 0,
      epoch: 0,
      replayUntil: 0,
      produced: false,
      endWritten: false,
      readySent: false,
    };
    this.running = running;
    this.history.clear();
    const isCurrent = () => this.running === running;
    decoder.on('spawn', () => {
      if (isCurrent() && decoder.pid !== undefined)
        this.post({ type: 'spawn', slot: this.id, generation, pid: decoder.pid });
    });
    decoder.on('title', (title) => {
      if (isCurrent()) this.post({ type: 'title', slot: this.id, generation, title });
    });
    decoder.on('data', (chunk) => {
      running.normalizer?.measure(chunk);
      if (isCurrent()) this.fill();
    });
    decoder.on('exit', (exit) => {
      if (decoder.pid !== undefined) this.post({ type: 'childGone', slot: this.id, pid: decoder.pid });
      if (!isCurrent() || exit.kind === 'killed') return;
      const producedNothing = !running.produced && decoder.pcm.exhausted;
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

  /**
   * Changes the gain; with `rewind`, from the frame it names: the frames from there that are already
   * encoded are encoded again, at the new gain and in the new epoch. The encoder first encodes the
   * frames before them once more (PRIMING_FRAMES, packets not sent) so that its memory of the signal,
   * which overlaps into the next frame, is of the frames the listener heard last, not of the
   * lookahead's end: spliced onto those, the first re-encoded frame would click.
   */
  changeGain(change: GainChange, rewind?: GainRewind): void {
    const running = this.running;
    if (running && rewind?.generation === running.generation) {
      running.epoch = rewind.epoch;
      const from = rewind.fromSequence;
      if (from < running.sequence && this.history.keepsFrom(from, running.sequence)) {
        for (let prime = from - PRIMING_FRAMES; prime < from; prime++) {
          if (!this.history.recall(prime, this.pcmFrame)) continue;
          this.history.restoreGain(prime, this.gain);
          this.gain.apply(this.pcmFrame);
          this.encoder.encodeInto(this.pcmFrame, discardedPacket);
        }
        this.history.restoreGain(from, this.gain);
        running.replayUntil = Math.max(running.replayUntil, running.sequence);
        running.sequence = from;
        running.endWritten = false;
      }
    }
    if (change.op === 'volume') this.gain.setVolume(change.percent);
    else if (change.op === 'duck') this.gain.duck(change.percent);
    else this.gain.unduck();
  }

  /** The bot's loudness target changed (undefined: off): the track playing follows it at once. */
  retargetLoudness(targetLufs: number | undefined): void {
    const running = this.running;
    if (!running) return;
    running.reported = undefined;
    if (running.normalizer) running.normalizer.retarget(targetLufs);
    else if (targetLufs !== undefined)
      running.normalizer = new LoudnessNormalizer({
        targetLufs,
        ...(running.known ? { known: running.known } : {}),
        midTrack: true,
      });
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
      if (running.normalizer?.ready === false && !pcm.hasEnded) return;
      running.started = true;
    }
    const target = Math.min(depth, this.lookaheadFrames);
    while (this.framesAhead(running) < target) {
      // A slot is free unless superseded frames the main thread has yet to drop fill the ring.
      const slot = this.ring.reserve();
      if (!slot) break;
      // A replayed frame is kept as it was normalized; only the volume is applied to it again.
      const frame =
        (running.sequence < running.replayUntil && this.history.recall(running.sequence, this.pcmFrame)) ||
        this.decodedFrame(running);
      if (frame) {
        this.history.record(running.sequence, frame, this.gain);
        this.gain.apply(frame);
        const length = this.encoder.encodeInto(frame, slot);
        this.ring.commit(running.generation, running.sequence++, 'audio', length, running.epoch);
        running.produced = true;
        continue;
      }
      // Ended and used up: the end marker goes in behind the last frame.
      if (pcm.exhausted && running.decoder.exit) {
        if (this.ring.put(running.generation, running.sequence, 'end', undefined, running.epoch))
          running.endWritten = true;
      }
      break;
    }
    if (!running.readySent && (running.sequence >= this.lookaheadFrames || running.endWritten)) {
      running.readySent = true;
      this.post({ type: 'ready', slot: this.id, generation: running.generation });
    }
  }

  /** The decoder's next frame, brought to the loudness target where normalization is on. */
  private decodedFrame(running: Running): Int16Array | undefined {
    const { pcm } = running.decoder;
    const frame = pcm.readFrame(this.pcmFrame);
    const normalizer = running.normalizer;
    if (!frame || !normalizer) return frame;
    normalizer.apply(frame, pcm.peekFrame(this.nextPcmFrame));
    const { gainDb, source } = normalizer;
    const last = running.reported;
    if (
      gainDb !== undefined &&
      source !== undefined &&
      (!last || last.source !== source || Math.abs(last.gainDb - gainDb) >= LOUDNESS_REPORT_STEP_DB)
    ) {
      running.reported = { gainDb: Math.round(gainDb * 10) / 10, source };
      this.post({
        type: 'loudness',
        slot: this.id,
        generation: running.generation,
        report: running.reported,
      });
    }
    return frame;
  }

  /**
   * Frames written and not yet sent: counted from the frame the main thread expects next, so the
   * superseded frames a gain change leaves in the ring do not count; the ring's size until the main
   * thread has taken a frame of this pipeline.
   */
  private framesAhead(running: Running): number {
    const next = this.ring.consumerNext(running.generation);
    return next === undefined ? this.ring.size : running.sequence - next;
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
