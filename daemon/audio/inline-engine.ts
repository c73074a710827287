/**
 * The inline engine (`AUDIO_ENGINE=inline`), the design before the worker pool: the ffmpeg child's PCM
 * lands in a buffer on the main thread, and between ticks the scheduler's `prepare` step reads one
 * frame, applies the gain and encodes it, so the tick only sends. Kept selectable so the bench can
 * measure it side by side with the workers engine, and tested as that one is: the player and send-path
 * suites (audio-player.test.ts, send-path.test.ts) run every case once per engine.
 */
import { EventEmitter } from 'node:events';
import { Decoder } from './decoder';
import { OpusEncoder, type OpusEncoderOptions } from './encoder';
import { Gain } from './gain';
import { SAMPLES_PER_FRAME } from './pcm-format';
import {
  ENDED,
  type PipelineEvents,
  type PipelineFrame,
  type PipelineSpec,
  type PlayerEngine,
  STARVED,
  type TrackPipeline,
} from './track-pipeline';

export interface InlineEngineOptions {
  volumePercent?: number;
  encoder?: OpusEncoderOptions;
}

export class InlineEngine implements PlayerEngine {
  private readonly gain: Gain;
  private readonly encoder: OpusEncoder;
  /** Reused for every frame; gain and the encoder are done with it before the next is read. */
  private readonly pcmFrame = new Int16Array(SAMPLES_PER_FRAME);

  constructor(options: InlineEngineOptions = {}) {
    this.gain = new Gain(options.volumePercent === undefined ? {} : { volumePercent: options.volumePercent });
    this.encoder = new OpusEncoder(options.encoder);
  }

  get volume(): number {
    return this.gain.volume;
  }

  setVolume(volumePercent: number): void {
    this.gain.setVolume(volumePercent);
  }

  duck(duckPercent: number): void {
    this.gain.duck(duckPercent);
  }

  unduck(): void {
    this.gain.unduck();
  }

  start(spec: PipelineSpec): TrackPipeline {
    const { track } = spec;
    const decoder = new Decoder({
      ffmpegPath: spec.ffmpegPath,
      input: track.input,
      seekSeconds: spec.seekSeconds,
      stallMs: spec.stallMs,
      ...(track.stopAtSeconds === undefined ? {} : { stopAtSeconds: track.stopAtSeconds }),
    });
    return new InlinePipeline(
      decoder,
      spec.prebufferFrames,
      (pcm) => {
        this.gain.apply(pcm);
        return this.encoder.encode(pcm);
      },
      this.pcmFrame,
    );
  }

  destroy(): void {
    this.encoder.destroy();
  }
}

class InlinePipeline extends EventEmitter<PipelineEvents> implements TrackPipeline {
  private prepared: PipelineFrame | undefined;
  private framesRead = 0;
  private isReady = false;

  constructor(
    private readonly decoder: Decoder,
    private readonly prebufferFrames: number,
    private readonly encode: (pcm: Int16Array) => Uint8Array,
    private readonly pcmFrame: Int16Array,
  ) {
    super();
    decoder.on('spawn', () => this.emit('spawn'));
    decoder.on('data', () => this.checkReady());
    decoder.on('title', (title) => this.emit('title', title));
    decoder.on('exit', (exit) => {
      if (exit.kind === 'killed') return;
      this.emit('exit', exit);
      this.checkReady();
    });
  }

  get exit() {
    return this.decoder.exit;
  }

  get ready(): boolean {
    return this.isReady;
  }

  get producedNothing(): boolean {
    return this.framesRead === 0 && this.decoder.pcm.exhausted;
  }

  prepare(): void {
    if (this.prepared) return;
    const { pcm } = this.decoder;
    const frame = pcm.readFrame(this.pcmFrame);
    if (frame) {
      this.framesRead++;
      this.prepared = { kind: 'audio', opus: this.encode(frame) };
    } else {
      this.prepared = pcm.exhausted ? ENDED : STARVED;
    }
  }

  takeFrame(): PipelineFrame {
    // A frame the scheduler had no turn to prepare (the first tick after a resume) is made now.
    this.prepare();
    const frame = this.prepared ?? STARVED;
    this.prepared = undefined;
    return frame;
  }

  kill(): void {
    this.decoder.kill();
  }

  private checkReady(): void {
    if (this.isReady) return;
    const { pcm } = this.decoder;
    if (pcm.framesAvailable < this.prebufferFrames && !pcm.hasEnded) return;
    this.isReady = true;
    this.emit('ready');
  }
}
