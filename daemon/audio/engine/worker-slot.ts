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
 *
 * The next song may be queued behind the one playing (a `play` with `after`): its decoder starts and
 * buffers at once, and its frames go into the ring right behind the playing one's end marker, through
 * the same encoder, so the two join without a gap or a click (the main thread, meeting the end marker,
 * goes on with the next generation in the same tick). With a crossfade, the end marker goes in where
 * the fade starts, and the next song's first frames carry the last ones of the song before, faded out
 * (`Crossfade`).
 */
import { Readable } from 'node:stream';
import type { KnownLoudness } from '../../../shared/domain/loudness';
import { Decoder } from '../decode/decoder';
import type { DecoderInput, UrlInput } from '../decode/decoder-input';
import { OpusEncoder } from '../encode/encoder';
import { FrameHistory } from '../encode/frame-history';
import { Gain } from '../encode/gain';
import { LoudnessNormalizer } from '../loudness/loudness-normalizer';
import { SAMPLES_PER_FRAME } from '../pcm-format';
import type {
  FromWorker,
  GainChange,
  GainRewind,
  JoinPlan,
  ToWorker,
  WireInput,
} from './audio-worker-protocol';
import { FrameRing, MAX_OPUS_FRAME_BYTES } from './frame-ring';
import type { LoudnessReport } from './track-pipeline';

type OpenMessage = Extract<ToWorker, { type: 'open' }>;
type PlayMessage = Extract<ToWorker, { type: 'play' }>;

const HALF_PI = Math.PI / 2;

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
  /** How it joins the pipeline before it, while it is queued behind that one. */
  join: JoinPlan | undefined;
}

/** The song before, fading out under the first frames of the one after it. */
interface Crossfade {
  outgoing: Running;
  frames: number;
  done: number;
}

export class WorkerSlot implements FillableSlot {
  private readonly ring: FrameRing;
  private readonly gain: Gain;
  private readonly encoder: OpusEncoder;
  private readonly lookaheadFrames: number;
  private readonly pcmFrame = new Int16Array(SAMPLES_PER_FRAME);
  /** The frame after `pcmFrame`, which the loudness limiter looks at ahead. */
  private readonly nextPcmFrame = new Int16Array(SAMPLES_PER_FRAME);
  /** The outgoing song's frame during a crossfade, and the one after it for its limiter. */
  private readonly outgoingFrame = new Int16Array(SAMPLES_PER_FRAME);
  private readonly outgoingNextFrame = new Int16Array(SAMPLES_PER_FRAME);
  private readonly history: FrameHistory;
  private running: Running | undefined;
  /** The next song, decoding ahead to follow `running`. */
  private queued: Running | undefined;
  private crossfade: Crossfade | undefined;
  /** Renewals of an expired stream address asked of the main thread, by request number. */
  private readonly renewals = new Map<number, (input: UrlInput | undefined) => void>();
  private nextRenewal = 0;

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
    const { after } = message;
    if (after) {
      // Queued behind a pipeline that has since been replaced: the main thread has dropped it too.
      if (this.running?.generation !== after.generation) return;
      this.dropQueued();
      this.queued = this.start(message, after);
      return;
    }
    this.stop();
    this.running = this.start(message, undefined);
    this.history.clear();
  }

  private start(message: PlayMessage, join: JoinPlan | undefined): Running {
    const generation = message.generation;
    const input = message.input.kind === 'stream' ? this.relayedInput(generation) : undefined;
    const decoder = new Decoder({
      ffmpegPath: message.ffmpegPath,
      input: decoderInput(message.input, input),
      seekSeconds: message.seekSeconds,
      stallMs: message.stallMs,
      ...(message.stopAtSeconds === undefined ? {} : { stopAtSeconds: message.stopAtSeconds }),
      ...(message.renewable ? { renew: () => this.askRenewal(generation) } : {}),
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
      join,
    };
    // Its messages count while it plays, is queued or fades out; its frames are the ring's business.
    const isCurrent = () => this.running === running || this.queued === running;
    const isHeard = () => isCurrent() || this.crossfade?.outgoing === running;
    decoder.on('spawn', () => {
      if (isCurrent() && decoder.pid !== undefined)
        this.post({ type: 'spawn', slot: this.id, generation, pid: decoder.pid });
    });
    decoder.on('title', (title) => {
      if (isCurrent()) this.post({ type: 'title', slot: this.id, generation, title });
    });
    decoder.on('data', (chunk) => {
      running.normalizer?.measure(chunk);
      if (isHeard()) this.fill();
    });
    decoder.on('exit', (exit) => {
      if (decoder.pid !== undefined) this.post({ type: 'childGone', slot: this.id, pid: decoder.pid });
      if (!isHeard() || exit.kind === 'killed') return;
      if (isCurrent()) {
        const producedNothing = !running.produced && decoder.pcm.exhausted;
        this.post({ type: 'exit', slot: this.id, generation, exit, producedNothing });
      }
      this.fill();
    });
    return running;
  }

  /** Bytes of a relayed stream input. */
  input(generation: number, chunk: Uint8Array | undefined): void {
    const running = [this.running, this.queued, this.crossfade?.outgoing].find(
      (candidate) => candidate?.generation === generation,
    );
    if (!running?.input) return;
    if (chunk) running.input.feed(chunk);
    else running.input.end();
  }

  /** The song's stream is resolved on the main thread, where its source lives. */
  private askRenewal(generation: number): Promise<UrlInput | undefined> {
    const request = this.nextRenewal++;
    return new Promise((resolve) => {
      this.renewals.set(request, resolve);
      this.post({ type: 'renew', slot: this.id, generation, request });
    });
  }

  /** The main thread's answer to renewal `request`. */
  renewed(request: number, input: UrlInput | undefined): void {
    const resolve = this.renewals.get(request);
    this.renewals.delete(request);
    resolve?.(input);
  }

  /** Stops pipeline `generation` (a queued one, or the one playing and what fades out under it), or all. */
  stop(generation?: number): void {
    if (generation === undefined || this.queued?.generation === generation) this.dropQueued();
    const running = this.running;
    if (!running || (generation !== undefined && running.generation !== generation)) return;
    this.running = undefined;
    running.decoder.kill();
    this.endCrossfade();
  }

  private dropQueued(): void {
    this.queued?.decoder.kill();
    this.queued = undefined;
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
    for (const resolve of this.renewals.values()) resolve(undefined);
    this.renewals.clear();
    this.encoder.destroy();
  }

  /** Tops the ring up to `depth` frames (the lookahead at most). */
  fill(depth = this.lookaheadFrames): void {
    let running = this.running;
    if (!running) return;
    // Gapless: the song queued behind follows the end marker.
    if (running.endWritten) {
      if (!this.queued) return;
      running = this.takeQueued();
    }
    if (!this.hasStarted(running)) return;
    const target = Math.min(depth, this.lookaheadFrames);
    while (this.framesAhead(running) < target) {
      if (this.fadeIsDue(running)) {
        if (!this.ring.put(running.generation, running.sequence, 'joined', undefined, running.epoch)) break;
        running.endWritten = true;
        const frames = this.queued?.join?.crossfadeFrames ?? 0;
        this.crossfade = { outgoing: running, frames, done: 0 };
        running = this.takeQueued();
        continue;
      }
      // A slot is free unless superseded frames the main thread has yet to drop fill the ring.
      const slot = this.ring.reserve();
      if (!slot) break;
      // A replayed frame is kept as it was normalized and mixed; only the volume is applied to it again.
      const frame =
        (running.sequence < running.replayUntil && this.history.recall(running.sequence, this.pcmFrame)) ||
        this.decodedFrame(running);
      if (frame) {
        if (this.crossfade && running.sequence >= running.replayUntil) this.mixOutgoing(frame);
        this.history.record(running.sequence, frame, this.gain);
        this.gain.apply(frame);
        const length = this.encoder.encodeInto(frame, slot);
        this.ring.commit(running.generation, running.sequence++, 'audio', length, running.epoch);
        running.produced = true;
        continue;
      }
      // Ended and used up: the end marker goes in behind the last frame, and the next song, if one is
      // queued and buffered, right behind it.
      const { pcm } = running.decoder;
      if (!pcm.exhausted || !running.decoder.exit) break;
      const marker = this.queued ? 'joined' : 'end';
      if (!this.ring.put(running.generation, running.sequence, marker, undefined, running.epoch)) break;
      running.endWritten = true;
      this.endCrossfade();
      if (!this.queued) break;
      running = this.takeQueued();
      if (!this.hasStarted(running)) break;
    }
    this.sayReady(running);
  }

  /** Whether a pipeline has buffered enough to start (its prebuffer, its first loudness estimate). */
  private hasStarted(running: Running): boolean {
    if (running.started) return true;
    const { pcm } = running.decoder;
    if (pcm.framesAvailable < running.prebufferFrames && !pcm.hasEnded) return false;
    if (running.normalizer?.ready === false && !pcm.hasEnded) return false;
    running.started = true;
    return true;
  }

  private sayReady(running: Running): void {
    if (running.readySent || (running.sequence < this.lookaheadFrames && !running.endWritten)) return;
    running.readySent = true;
    this.post({ type: 'ready', slot: this.id, generation: running.generation });
  }

  /** The queued song becomes the one playing: its frames follow the end marker just written. */
  private takeQueued(): Running {
    const next = this.queued;
    if (!next) throw new Error('no song is queued');
    this.queued = undefined;
    next.join = undefined;
    this.running = next;
    // The history's frames are of the song before; a gain rewind only ever concerns the one playing.
    this.history.clear();
    return next;
  }

  /**
   * A crossfade starts at the frame its plan names, or sooner when the decoder has ended with fewer
   * frames left than the fade (the duration known was longer than the file), once the next song has
   * buffered its start. Replayed frames are past already: never in the middle of a rewind.
   */
  private fadeIsDue(running: Running): boolean {
    const plan = this.queued?.join;
    if (!plan || plan.crossfadeFrames === 0 || running.sequence < running.replayUntil) return false;
    const { decoder } = running;
    const due =
      running.sequence >= plan.fadeAtSequence ||
      (decoder.exit !== undefined && decoder.pcm.framesAvailable <= plan.crossfadeFrames);
    return due && this.queued !== undefined && this.hasStarted(this.queued);
  }

  /**
   * Adds the outgoing song's next frame to `frame` (the incoming song's), the two weighted by an
   * equal-power fade: in by sin, out by cos of the fade's progress, so the loudness holds through it.
   * The weights move linearly within a frame, between the curve's values at its two ends.
   */
  private mixOutgoing(frame: Int16Array): void {
    const fade = this.crossfade;
    if (!fade) return;
    const outgoing = this.normalizedFrame(fade.outgoing, this.outgoingFrame, this.outgoingNextFrame);
    const from = fade.done / fade.frames;
    const to = (fade.done + 1) / fade.frames;
    const inFrom = Math.sin(from * HALF_PI);
    const inTo = Math.sin(to * HALF_PI);
    const outFrom = Math.cos(from * HALF_PI);
    const outTo = Math.cos(to * HALF_PI);
    const pairs = frame.length / 2;
    for (let pair = 0; pair < pairs; pair++) {
      const t = pair / pairs;
      const inGain = inFrom + (inTo - inFrom) * t;
      const outGain = outFrom + (outTo - outFrom) * t;
      for (let i = pair * 2; i < pair * 2 + 2; i++) {
        const mixed = (frame[i] ?? 0) * inGain + (outgoing ? (outgoing[i] ?? 0) * outGain : 0);
        frame[i] = mixed > 32767 ? 32767 : mixed < -32768 ? -32768 : mixed;
      }
    }
    fade.done++;
    const drained = !outgoing && fade.outgoing.decoder.exit !== undefined;
    if (fade.done >= fade.frames || drained) this.endCrossfade();
  }

  private endCrossfade(): void {
    this.crossfade?.outgoing.decoder.kill();
    this.crossfade = undefined;
  }

  /** The decoder's next frame, brought to the loudness target where normalization is on. */
  private normalizedFrame(running: Running, into: Int16Array, ahead: Int16Array): Int16Array | undefined {
    const { pcm } = running.decoder;
    const frame = pcm.readFrame(into);
    if (frame) running.normalizer?.apply(frame, () => pcm.peekFrame(ahead));
    return frame;
  }

  /** The playing song's next frame, normalized, its gain reported to the main thread when it moved. */
  private decodedFrame(running: Running): Int16Array | undefined {
    const frame = this.normalizedFrame(running, this.pcmFrame, this.nextPcmFrame);
    const normalizer = running.normalizer;
    if (!frame || !normalizer) return frame;
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
