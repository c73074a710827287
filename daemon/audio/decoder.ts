/**
 * One ffmpeg child per playing track: it reads the input, writes 48 kHz stereo s16le to stdout, and
 * the stdout data lands in a PcmBuffer that pauses the pipe at its high-water mark. The child is
 * killed on stop, skip or seek; `kill()` is idempotent and the child is always reaped, so no zombie
 * outlives the track.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';
import { logger } from '../../shared/logger';
import type { DecoderInput } from './decoder-input';
import { buildFfmpegArgs } from './ffmpeg-args';
import { PcmBuffer, type PcmBufferOptions } from './pcm-buffer';
import { StderrTail } from './stderr-tail';

const log = logger('audio.decoder');
const DECODER_NICENESS = 10;

export interface DecoderOptions {
  ffmpegPath: string;
  input: DecoderInput;
  seekSeconds?: number;
  /** Decode no further than this position of the input (a preview clip). */
  stopAtSeconds?: number;
  /** Buffer marks; the SPEC values are the defaults. */
  buffer?: Omit<PcmBufferOptions, 'onDrain'>;
}

/** How the child ended. `spawnFailed` means it never ran (missing or non-executable binary). */
export type DecoderExit =
  | { kind: 'finished' }
  | { kind: 'killed' }
  | { kind: 'failed'; message: string; spawnFailed: boolean };

export interface DecoderEvents {
  /** The child is running. */
  spawn: [];
  /** New PCM arrived in `pcm`. */
  data: [];
  /** The child is gone and, unless killed, everything it wrote is in `pcm`. Emitted once. */
  exit: [DecoderExit];
}

export class Decoder extends EventEmitter<DecoderEvents> {
  readonly pcm: PcmBuffer;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stderr = new StderrTail();
  private readonly sourceStream: Readable | undefined;
  private exitResult: DecoderExit | undefined;
  private killed = false;

  constructor(options: DecoderOptions) {
    super();
    const { input } = options;
    const seekSeconds = options.seekSeconds ?? 0;
    this.child = spawn(options.ffmpegPath, buildFfmpegArgs(input, seekSeconds, options.stopAtSeconds), {
      stdio: 'pipe',
    });
    this.pcm = new PcmBuffer({ ...options.buffer, onDrain: () => this.child.stdout.resume() });
    log.debug({ pid: this.child.pid, input: input.kind, seekSeconds }, 'ffmpeg started');

    this.child.once('spawn', () => {
      this.lowerPriority();
      this.emit('spawn');
    });
    this.child.once('error', (error) =>
      this.finish({ kind: 'failed', message: spawnMessage(error), spawnFailed: true }),
    );
    this.child.once('close', (code, signal) => this.onClose(code, signal));
    this.child.stderr.on('data', (chunk: Buffer) => this.stderr.append(chunk));
    this.child.stdout.on('data', (chunk: Buffer) => {
      // After a kill the rest of the pipe is drained and dropped, so the stream can close (no fd leak).
      if (this.killed) return;
      if (!this.pcm.write(chunk)) this.child.stdout.pause();
      this.emit('data');
    });

    // ffmpeg may exit before a producer is done (error, kill); the broken pipe is expected then.
    this.child.stdin.on('error', (error) => log.debug({ err: error }, 'ffmpeg stdin closed early'));
    if (input.kind === 'stream') {
      this.sourceStream = input.stream;
      input.stream.pipe(this.child.stdin);
    } else {
      this.child.stdin.end();
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True while the child's stdout is paused by backpressure. */
  get readingPaused(): boolean {
    return this.child.stdout.isPaused();
  }

  /** The last ~8 KB ffmpeg wrote to stderr. */
  get stderrTail(): string {
    return this.stderr.text();
  }

  get exit(): DecoderExit | undefined {
    return this.exitResult;
  }

  /** Stops the child now. Safe to call again and after it has exited. */
  kill(): void {
    if (this.killed) return;
    this.killed = true;
    this.releaseSource();
    if (this.exitResult) return;
    // SIGKILL: ffmpeg has nothing to flush that we still want, and it cannot ignore it.
    this.child.kill('SIGKILL');
    // A pipe paused by backpressure would never reach its end, and the child's 'close' would never come.
    this.child.stdout.resume();
    this.finish({ kind: 'killed' });
  }

  /**
   * A decoder runs seconds ahead of playback, so it can wait; the frame clock in this process cannot.
   * Nice 10 keeps a burst of ffmpeg start-ups (every bot changing track at once) from making ticks late.
   */
  private lowerPriority(): void {
    if (this.child.pid === undefined) return;
    try {
      setPriority(this.child.pid, DECODER_NICENESS);
    } catch (error) {
      log.debug({ err: error }, 'could not lower ffmpeg priority');
    }
  }

  private onClose(code: number | null, signal: NodeJS.Signals | null): void {
    this.pcm.end();
    if (code === 0) {
      this.finish({ kind: 'finished' });
      return;
    }
    const reason = this.stderr.summary() || (signal ? `killed by ${signal}` : `exit code ${code}`);
    this.finish({ kind: 'failed', message: `ffmpeg failed: ${reason}`, spawnFailed: false });
  }

  private finish(result: DecoderExit): void {
    if (this.exitResult) return;
    this.exitResult = result;
    this.releaseSource();
    if (result.kind === 'failed')
      log.warn({ pid: this.child.pid, stderr: this.stderr.text() }, result.message);
    this.emit('exit', result);
  }

  private releaseSource(): void {
    this.sourceStream?.unpipe(this.child.stdin);
  }
}

function spawnMessage(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'EACCES'
    ? `ffmpeg could not be started (${code}): install the ffmpeg package or set FFMPEG_PATH`
    : `ffmpeg could not be started: ${error.message}`;
}
