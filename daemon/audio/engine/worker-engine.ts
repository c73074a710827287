/**
 * The workers engine, the audio players' engine: a player's decoding, gain and Opus
 * encoding run on a pool worker (worker-slot.ts), which keeps a lookahead of encoded frames in the
 * player's FrameRing. On the main thread the 20 ms tick only takes the next frame (`takeFrame`), so
 * no decoding or encoding can make it late; an empty ring is an underrun, never a wait. Between ticks
 * the player looks at that frame (`peekFrame`) to build its packet ahead.
 *
 * Control stays on the main thread and takes effect at once on the wire side:
 * - stop, seek and skip flush the ring here before telling the worker, and each pipeline has its own
 *   generation, so a frame of the old one that the worker writes meanwhile is dropped, never sent;
 * - pause just stops taking frames: the lookahead waits in the ring and plays first on resume;
 * - volume and ducking go to the worker's gain with the first frame that must sound at the new gain:
 *   the next GAIN_KEEP_FRAMES still go out as they are, and the worker encodes the lookahead from there
 *   again as a new gain epoch; this thread sends those and drops the superseded ones. So a change
 *   reaches the wire within 60-80 ms however deep the lookahead, and the lookahead (160 ms) is sized
 *   for the worker's hold-ups on a busy machine, not for the control lag.
 * A stream input (a process's stdout living on this thread) is relayed to the worker chunk by chunk,
 * with the worker's backpressure pausing and resuming the stream.
 *
 * A track's platform stream whose signed address expired is resolved again here, where its source
 * lives, when the worker's relay asks (`renew`); the fresh input replaces the track's own, so a later
 * seek opens it at once.
 *
 * The next track may be queued behind the one playing (`queue`): its pipeline waits (its messages
 * arrive, it takes no frames and flushes nothing) until the playing one answers `joined`, then `join`
 * makes it the one playing. The one before is handed over, not killed: the worker may still be fading
 * it out under the new one's first frames, so its stream input stays relayed until the next change.
 */
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { logger } from '../../../shared/logger';
import type { DecoderExit } from '../decode/decoder';
import type { DecoderInput, UrlInput } from '../decode/decoder-input';
import type { OpusEncoderOptions } from '../encode/encoder';
import { clampPercent } from '../encode/gain';
import type { Track } from '../track';
import { type AudioWorkerPool, audioWorkerPool, type PoolSlot, type SlotListener } from './audio-worker-pool';
import type {
  FromWorker,
  GainChange,
  GainRewind,
  JoinPlan,
  ToWorker,
  WireInput,
} from './audio-worker-protocol';
import { FrameRing, newRingRecord, RING_SLOTS, type RingRecord } from './frame-ring';
import {
  type AudioFrame,
  ENDED,
  JOINED,
  type LoudnessReport,
  type PipelineEvents,
  type PipelineFrame,
  type PipelineSpec,
  type PlayerEngine,
  type QueuePlan,
  STARVED,
  type TrackPipeline,
} from './track-pipeline';

const log = logger('audio.workers');

/**
 * Encoded frames a worker keeps ready per player: 160 ms it may be held up (descheduled on a busy
 * machine, a long GC) before a player runs dry. Traced at 150 bots on 2 cores, hold-ups of 60-100 ms,
 * rarely more, emptied the 60 ms of three frames every few seconds.
 */
export const DEFAULT_LOOKAHEAD_FRAMES = 8;
/**
 * Frames still sent at the old gain after a gain change: 40 ms for the worker to encode the rest again
 * before one is due, so a change costs no underrun unless the worker is held up just then.
 */
export const GAIN_KEEP_FRAMES = 2;
/** Gain epochs whose unsuperseded frames may still wait in the ring: more than a ring's worth. */
const EPOCH_MEMORY = RING_SLOTS;

export interface WorkerEngineOptions {
  pool?: AudioWorkerPool;
  volumePercent?: number;
  encoder?: OpusEncoderOptions;
  /** 1 to RING_SLOTS / 2 (the other half holds frames a gain change supersedes). */
  lookaheadFrames?: number;
}

export class WorkerEngine implements PlayerEngine, SlotListener {
  private readonly pool: AudioWorkerPool;
  private readonly encoder: OpusEncoderOptions;
  private readonly lookaheadFrames: number;
  private ring = new FrameRing();
  private slot: PoolSlot;
  private volumePercent: number;
  private duckPercent: number | undefined;
  private generation = 0;
  private current: WorkerPipeline | undefined;
  /** The next track's pipeline, queued behind `current`. */
  private queued: WorkerPipeline | undefined;
  /** The pipeline `current` joined, which the worker may still be fading out. */
  private handedOver: WorkerPipeline | undefined;

  constructor(options: WorkerEngineOptions = {}) {
    this.pool = options.pool ?? audioWorkerPool();
    this.encoder = options.encoder ?? {};
    this.lookaheadFrames = Math.min(
      RING_SLOTS / 2,
      Math.max(1, options.lookaheadFrames ?? DEFAULT_LOOKAHEAD_FRAMES),
    );
    this.volumePercent = clampPercent(options.volumePercent ?? 100);
    this.slot = this.openSlot();
  }

  get volume(): number {
    return this.volumePercent;
  }

  setVolume(volumePercent: number): void {
    this.volumePercent = clampPercent(volumePercent);
    this.changeGain({ op: 'volume', percent: this.volumePercent });
  }

  duck(duckPercent: number): void {
    this.duckPercent = clampPercent(duckPercent);
    this.changeGain({ op: 'duck', percent: this.duckPercent });
  }

  unduck(): void {
    if (this.duckPercent === undefined) return;
    this.duckPercent = undefined;
    this.changeGain({ op: 'unduck' });
  }

  setLoudnessTarget(targetLufs: number | undefined): void {
    this.slot.post({
      type: 'loudness',
      slot: this.slot.id,
      ...(targetLufs === undefined ? {} : { targetLufs }),
    });
  }

  start(spec: PipelineSpec): TrackPipeline {
    this.cancelQueued();
    this.current?.kill();
    this.releaseHandedOver();
    // A slot whose worker died is replaced by one on a live worker (a new ring: the old one's state is
    // whatever the dead worker left).
    if (!this.slot.alive) {
      this.ring = new FrameRing();
      this.slot = this.openSlot();
    }
    const pipeline = this.launch(spec, undefined);
    this.current = pipeline;
    this.slot.setBusy(true);
    return pipeline;
  }

  queue(spec: PipelineSpec, plan: QueuePlan): TrackPipeline | undefined {
    const current = this.current;
    if (!current || !this.slot.alive) return undefined;
    this.cancelQueued();
    const pipeline = this.launch(spec, { generation: current.generation, ...plan });
    this.queued = pipeline;
    return pipeline;
  }

  cancelQueued(): void {
    this.queued?.kill();
    this.queued = undefined;
  }

  join(): TrackPipeline | undefined {
    const next = this.queued;
    if (!next) return undefined;
    this.releaseHandedOver();
    this.handedOver = this.current;
    this.queued = undefined;
    this.current = next;
    next.promote();
    return next;
  }

  destroy(): void {
    this.cancelQueued();
    this.current?.kill();
    this.releaseHandedOver();
    this.slot.close();
  }

  /** @internal */
  onWorkerMessage(message: FromWorker): void {
    if (message.type === 'childGone') return;
    if (message.type === 'renew') {
      void this.renew(message);
      return;
    }
    const pipeline = [this.current, this.queued, this.handedOver].find(
      (candidate) => candidate?.generation === message.generation,
    );
    pipeline?.onWorkerMessage(message);
  }

  /** @internal */
  onWorkerLost(reason: string): void {
    this.current?.lose(reason);
    this.queued?.lose(reason);
  }

  /** Answers the worker's relay with the song resolved again (nothing for a pipeline since replaced). */
  private async renew({ generation, request }: Extract<FromWorker, { type: 'renew' }>): Promise<void> {
    const slot = this.slot;
    const pipeline = [this.current, this.queued, this.handedOver].find(
      (candidate) => candidate?.generation === generation,
    );
    const input = await pipeline?.renewInput();
    if (slot.alive) slot.post({ type: 'renewed', slot: slot.id, request, ...(input ? { input } : {}) });
  }

  /** A pipeline's decoder starts on the worker (queued behind the one playing, with `after`). */
  private launch(spec: PipelineSpec, after: JoinPlan | undefined): WorkerPipeline {
    const { track } = spec;
    const generation = ++this.generation;
    const pipeline = new WorkerPipeline(
      this.slot,
      this.ring,
      track,
      generation,
      () => {
        if (this.current === pipeline) this.current = undefined;
      },
      after !== undefined,
    );
    this.slot.post({
      type: 'play',
      slot: this.slot.id,
      generation,
      ffmpegPath: spec.ffmpegPath,
      input: wireInput(track.input),
      seekSeconds: spec.seekSeconds,
      ...(track.stopAtSeconds === undefined ? {} : { stopAtSeconds: track.stopAtSeconds }),
      prebufferFrames: spec.prebufferFrames,
      stallMs: spec.stallMs,
      ...(spec.loudnessTargetLufs === undefined ? {} : { loudnessTargetLufs: spec.loudnessTargetLufs }),
      ...(track.loudness ? { known: track.loudness } : {}),
      ...(after ? { after } : {}),
      ...(track.renew && track.input.kind === 'url' ? { renewable: true as const } : {}),
    });
    if (track.input.kind === 'stream') pipeline.relay(track.input.stream);
    return pipeline;
  }

  /** The pipeline joined earlier is done fading out by now: its stream input is let go. */
  private releaseHandedOver(): void {
    this.handedOver?.detachInput();
    this.handedOver = undefined;
  }

  private openSlot(): PoolSlot {
    return this.pool.open(
      this,
      (slot): ToWorker => ({
        type: 'open',
        slot,
        ring: this.ring.buffer,
        volumePercent: this.volumePercent,
        ...(this.duckPercent === undefined ? {} : { duckPercent: this.duckPercent }),
        encoder: this.encoder,
        lookaheadFrames: this.lookaheadFrames,
      }),
    );
  }

  private changeGain(change: GainChange): void {
    const rewind = this.current?.regain();
    this.slot.post({ type: 'gain', slot: this.slot.id, change, ...(rewind ? { rewind } : {}) });
  }
}

class WorkerPipeline extends EventEmitter<PipelineEvents> implements TrackPipeline {
  private exitResult: DecoderExit | undefined;
  private isReady = false;
  private nothingProduced = false;
  private ended = false;
  private killed = false;
  private lastLoudness: LoudnessReport | undefined;
  private nextSequence = 0;
  private epoch = 0;
  /** Per recent gain epoch (its number mod EPOCH_MEMORY): the first sequence it no longer plays. */
  private readonly supersededFrom = new Int32Array(EPOCH_MEMORY);
  private readonly record = newRingRecord();
  /** The last frame `peekFrame` answered (its own record: a take must not overwrite it) and its place. */
  private readonly peekRecord = newRingRecord();
  private peeked: { frame: AudioFrame; sequence: number; epoch: number } | undefined;
  private input: { stream: Readable; detach: () => void } | undefined;

  constructor(
    private readonly slot: PoolSlot,
    private readonly ring: FrameRing,
    private readonly track: Track,
    readonly generation: number,
    private readonly onGone: () => void,
    /** Queued behind the pipeline playing: the ring's records are that one's, not to flush or drop. */
    private waiting: boolean,
  ) {
    super();
  }

  get loudness(): LoudnessReport | undefined {
    return this.lastLoudness;
  }

  /** It plays now: the ring's records from here on are its own. */
  promote(): void {
    this.waiting = false;
  }

  get exit(): DecoderExit | undefined {
    return this.exitResult;
  }

  get ready(): boolean {
    return this.isReady;
  }

  get producedNothing(): boolean {
    return this.nothingProduced;
  }

  peekFrame(): PipelineFrame {
    this.peeked = undefined;
    if (this.ended || this.killed) return ENDED;
    const record = this.peekRecord;
    while (this.ring.peek(record)) {
      // A record this pipeline never sends goes now; `takeFrame` would drop it all the same.
      if (!this.plays(record)) {
        this.ring.skip();
        continue;
      }
      if (record.kind !== 'audio') return ENDED;
      const frame: AudioFrame = { kind: 'audio', opus: record.opus };
      this.peeked = { frame, sequence: record.sequence, epoch: record.epoch };
      return frame;
    }
    return STARVED;
  }

  takeFrame(): PipelineFrame {
    const peeked = this.peeked;
    this.peeked = undefined;
    if (this.ended || this.killed) return ENDED;
    const record = this.record;
    // Whatever is taken, the worker may write again: ring once per tick for all players of a worker.
    this.slot.wake();
    while (this.ring.take(record)) {
      if (!this.plays(record)) continue;
      if (record.sequence !== this.nextSequence)
        log.error({ expected: this.nextSequence, got: record.sequence }, 'audio frames lost between threads');
      this.nextSequence = record.sequence + 1;
      this.ring.acknowledge(this.generation, this.nextSequence);
      if (record.kind !== 'audio') {
        this.ended = true;
        return record.kind === 'joined' ? JOINED : ENDED;
      }
      if (peeked?.sequence === record.sequence && peeked.epoch === record.epoch) return peeked.frame;
      return { kind: 'audio', opus: record.opus };
    }
    return STARVED;
  }

  /**
   * A gain change: the frames from GAIN_KEEP_FRAMES ahead on are to be encoded again in a new epoch;
   * what the worker is told to do so.
   */
  regain(): GainRewind {
    const fromSequence = this.nextSequence + GAIN_KEEP_FRAMES;
    this.supersededFrom[this.epoch % EPOCH_MEMORY] = fromSequence;
    this.epoch++;
    return { generation: this.generation, epoch: this.epoch, fromSequence };
  }

  /**
   * A record is this pipeline's to send when it is of the current gain epoch, or of an earlier one
   * and before the frame from which a later gain change had it encoded again.
   */
  private plays(record: RingRecord): boolean {
    if (record.generation !== this.generation) return false;
    const behind = this.epoch - record.epoch;
    if (behind === 0) return true;
    return (
      behind > 0 &&
      behind < EPOCH_MEMORY &&
      record.sequence < (this.supersededFrom[record.epoch % EPOCH_MEMORY] ?? 0)
    );
  }

  /** The track's stream resolved again, kept as the track's input from now on; undefined: none. */
  async renewInput(): Promise<UrlInput | undefined> {
    if (this.killed) return undefined;
    const fresh = await this.track.renew?.();
    if (fresh?.kind !== 'url') return undefined;
    this.track.input = fresh;
    return fresh;
  }

  kill(): void {
    if (this.killed) return;
    this.killed = true;
    this.exitResult ??= { kind: 'killed' };
    this.input?.detach();
    this.slot.post({ type: 'stop', slot: this.slot.id, generation: this.generation });
    if (this.waiting) return;
    this.ring.flush();
    this.slot.setBusy(false);
    this.onGone();
  }

  detachInput(): void {
    this.input?.detach();
  }

  /** Relays a stream input's bytes to the worker's ffmpeg. The stream stays the caller's. */
  relay(stream: Readable): void {
    const post = (message: ToWorker) => {
      if (!this.killed) this.slot.post(message);
    };
    const onData = (chunk: Buffer) =>
      post({ type: 'input', slot: this.slot.id, generation: this.generation, chunk: new Uint8Array(chunk) });
    const onEnd = () => post({ type: 'inputEnd', slot: this.slot.id, generation: this.generation });
    stream.on('data', onData);
    stream.once('end', onEnd);
    // A failing producer ends the input; ffmpeg then finishes with what it got.
    stream.once('error', onEnd);
    this.input = {
      stream,
      detach: () => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', onEnd);
        stream.pause();
      },
    };
  }

  onWorkerMessage(message: Exclude<FromWorker, { type: 'childGone' }>): void {
    if (this.killed) return;
    // Every record the worker wrote before it switched to this generation is in the ring by now (a
    // pipeline waiting behind, or handed over, leaves them: they are the playing one's).
    if (!this.waiting && !this.ended) this.ring.dropStale(this.generation);
    this.slot.wake();
    switch (message.type) {
      case 'spawn':
        this.emit('spawn');
        break;
      case 'ready':
        this.isReady = true;
        this.emit('ready');
        break;
      case 'exit':
        this.exitResult = message.exit;
        this.nothingProduced = message.producedNothing;
        this.emit('exit', message.exit);
        break;
      case 'title':
        this.emit('title', message.title);
        break;
      case 'loudness':
        this.lastLoudness = message.report;
        this.emit('loudness', message.report);
        break;
      case 'inputPause':
        this.input?.stream.pause();
        break;
      case 'inputResume':
        this.input?.stream.resume();
        break;
    }
  }

  /** The worker died: the track ends with its reason (at once while buffering, after the lookahead else). */
  lose(reason: string): void {
    if (this.killed || this.ended) return;
    this.ended = true;
    this.input?.detach();
    this.slot.setBusy(false);
    this.exitResult = { kind: 'failed', message: reason, problem: 'decodeFailed' };
    this.nothingProduced = true;
    this.emit('exit', this.exitResult);
  }
}

function wireInput(input: DecoderInput): WireInput {
  if (input.kind !== 'stream') return input;
  return { kind: 'stream', ...(input.rawFormat ? { rawFormat: input.rawFormat } : {}) };
}
