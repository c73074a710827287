/**
 * One ffmpeg child per playing track, started through this thread's launcher (process-launcher.ts,
 * so no start forks this process): it reads the input, writes 48 kHz stereo s16le to stdout, and the
 * stdout data lands in a PcmBuffer that pauses the connection at its high-water mark. The child is
 * killed on stop, skip or seek; `kill()` is idempotent and the launcher always reaps the child, so no
 * zombie outlives the track.
 *
 * A platform's http(s) stream is read through this thread's stream relay (stream-relay.ts), so its
 * headers stay in this process; ffmpeg starts once the relay has its loopback URL (at once after the
 * relay's first use). An upstream that sends nothing for `stallMs` while ffmpeg waits ends the
 * decoder as `stalled`. A platform's address that expired is resolved again through `renew`
 * (relay/address-renewal.ts).
 */
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { type LaunchError, type LaunchedProcess, launchProcess } from '../../../shared/exec/process-launcher';
import { logger } from '../../../shared/logger';
import { STREAM_STALL_MS } from '../playback-policy';
import { type RelayedStream, streamRelay } from '../relay/stream-relay';
import { type DecodeProblem, decodeProblemOf } from './decode-problem';
import { type DecoderInput, isHlsPlaylist, type UrlInput } from './decoder-input';
import { buildFfmpegArgs, type FfmpegInput } from './ffmpeg-args';
import { PcmBuffer, type PcmBufferOptions } from './pcm-buffer';
import { StderrTail } from './stderr-tail';

const log = logger('audio.decoder');

export interface DecoderOptions {
  ffmpegPath: string;
  input: DecoderInput;
  seekSeconds?: number;
  /** Decode no further than this position of the input (a preview clip). */
  stopAtSeconds?: number;
  /** Buffer marks; the SPEC values are the defaults. */
  buffer?: Omit<PcmBufferOptions, 'onDrain'>;
  /** How long a relayed stream may send nothing while ffmpeg waits (STREAM_STALL_MS by default). */
  stallMs?: number;
  /** A platform's stream: resolves it again (a fresh signed address) when its address has expired. */
  renew?: () => Promise<UrlInput | undefined>;
}

/**
 * How the child ended. A failure says its kind (`problem`, decode-problem.ts): `decoderMissing` means
 * it never ran (missing or non-executable binary); `message` is what happened in English, for the log.
 * `stalled`: the stream sent nothing for `stallSeconds` and the child was stopped.
 */
export type DecoderExit =
  | { kind: 'finished' }
  | { kind: 'killed' }
  | { kind: 'failed'; message: string; problem: DecodeProblem }
  | { kind: 'stalled'; stallSeconds: number };

export interface DecoderEvents {
  /** The child is running. */
  spawn: [];
  /** New PCM arrived in `pcm`. */
  data: [chunk: Buffer];
  /** The child is gone and, unless killed, everything it wrote is in `pcm`. Emitted once. */
  exit: [DecoderExit];
  /** The relayed stream (a user's address) named what plays now: its new ICY StreamTitle. */
  title: [string];
}

export class Decoder extends EventEmitter<DecoderEvents> {
  readonly pcm: PcmBuffer;
  private child: LaunchedProcess | undefined;
  private readonly stderr = new StderrTail();
  private readonly sourceStream: Readable | undefined;
  private readonly relayed: RelayedStream | undefined;
  private exitResult: DecoderExit | undefined;
  private killed = false;
  /** Set when the relayed stream stalled; the child's close then ends the decoder as `stalled`. */
  private stalledAfterMs: number | undefined;
  /** The HTTP status the relayed stream was last refused with for good (after any renewal). */
  private refusedWith: number | undefined;

  constructor(options: DecoderOptions) {
    super();
    const { input } = options;
    this.pcm = new PcmBuffer({ ...options.buffer, onDrain: () => this.child?.io?.resume() });
    if (input.kind === 'stream') this.sourceStream = input.stream;
    if (input.kind !== 'url' || input.servedLocally || !/^https?:/i.test(input.url)) {
      this.spawnChild(options, input);
      return;
    }
    const stallMs = options.stallMs ?? STREAM_STALL_MS;
    const { renew } = options;
    const relayed = streamRelay().open(input, {
      stallMs,
      onStall: () => this.stall(stallMs),
      onTitle: (title) => this.emit('title', title),
      onRefused: (status) => {
        this.refusedWith = status;
      },
      // Only a platform's address is signed; a user's is theirs as it is.
      ...(renew && !input.userAddress ? { renew: async () => platformAddressOf(await renew()) } : {}),
    });
    this.relayed = relayed;
    relayed.url.then(
      // An HLS stream: the relay serves playlists it wrote itself, which only then ffmpeg may read.
      (url) => this.spawnChild(options, { kind: 'url', url, hlsPlaylist: isHlsPlaylist(input) }),
      (error: Error) => {
        this.pcm.end();
        this.finish({
          kind: 'failed',
          message: `the stream relay failed: ${error.message}`,
          problem: 'decodeFailed',
        });
      },
    );
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** True while the child's stdout is paused by backpressure. */
  get readingPaused(): boolean {
    return this.child?.io?.isPaused() ?? false;
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
    const running = !this.exitResult;
    this.stopChild();
    if (running) this.finish({ kind: 'killed' });
  }

  private spawnChild(options: DecoderOptions, input: FfmpegInput): void {
    // Killed (or the relay failed) while the relay was getting ready: nothing to start.
    if (this.killed || this.exitResult) return;
    const seekSeconds = options.seekSeconds ?? 0;
    const child = launchProcess(
      options.ffmpegPath,
      buildFfmpegArgs(input, seekSeconds, options.stopAtSeconds),
    );
    this.child = child;
    child.once('spawn', () => {
      log.debug({ pid: child.pid, input: input.kind, seekSeconds }, 'ffmpeg started');
      this.connect(child, input);
      this.emit('spawn');
    });
    child.once('error', (error) =>
      this.finish({ kind: 'failed', message: spawnMessage(error), problem: 'decoderMissing' }),
    );
    child.once('close', (code, signal) => this.onClose(code, signal));
    child.on('stderr', (chunk) => this.stderr.append(chunk));
  }

  /** Reads the child's PCM from its stdout and, for a stream input, feeds its stdin. */
  private connect(child: LaunchedProcess, input: FfmpegInput): void {
    const io = child.io;
    if (!io) return;
    io.on('data', (chunk: Buffer) => {
      // After a kill the rest of the output is drained and dropped, so the connection can close (no fd leak).
      if (this.killed) return;
      if (!this.pcm.write(chunk)) io.pause();
      this.emit('data', chunk);
    });
    // ffmpeg may exit before a producer is done (error, kill); the broken connection is expected then.
    io.on('error', (error) => log.debug({ err: error }, 'ffmpeg stdin closed early'));
    if (this.killed) return;
    if (input.kind === 'stream') input.stream.pipe(io);
    else io.end();
  }

  /** The stream sent nothing for too long: the child is stopped, and its exit says why. */
  private stall(stallMs: number): void {
    if (this.killed || this.exitResult) return;
    log.warn({ pid: this.child?.pid, stallMs }, 'the stream sent nothing: decoding stopped');
    this.stalledAfterMs = stallMs;
    this.releaseSource();
    if (this.child) this.signalChild(this.child);
    else this.onClose(null, null);
  }

  private stopChild(): void {
    this.killed = true;
    this.releaseSource();
    if (this.child) this.signalChild(this.child);
    // Never started: nothing else will close the buffer.
    else this.pcm.end();
  }

  private signalChild(child: LaunchedProcess): void {
    if (child.exited) return;
    // SIGKILL: ffmpeg has nothing to flush that we still want, and it cannot ignore it.
    child.kill();
    // Output paused by backpressure would never reach its end, and the child's 'close' would never come.
    child.io?.resume();
  }

  private onClose(code: number | null, signal: NodeJS.Signals | null): void {
    this.pcm.end();
    if (this.stalledAfterMs !== undefined) {
      this.finish({ kind: 'stalled', stallSeconds: this.stalledAfterMs / 1000 });
      return;
    }
    if (code === 0 && this.refusedWith !== undefined) {
      // ffmpeg took a reconnect its server refused (an address that expired and could not be
      // renewed) for the stream's end: the song did not finish, it was cut off.
      this.finish({
        kind: 'failed',
        message: `the stream's server refused it mid-stream (HTTP ${this.refusedWith})`,
        problem: problemOfStatus(this.refusedWith),
      });
      return;
    }
    if (code === 0) {
      this.finish({ kind: 'finished' });
      return;
    }
    const reason = this.stderr.summary() || (signal ? `killed by ${signal}` : `exit code ${code}`);
    this.finish({
      kind: 'failed',
      message: `ffmpeg failed: ${reason}`,
      problem: decodeProblemOf(this.stderr.text()),
    });
  }

  private finish(result: DecoderExit): void {
    if (this.exitResult) return;
    this.exitResult = result;
    this.releaseSource();
    if (result.kind === 'failed')
      log.warn({ pid: this.child?.pid, stderr: this.stderr.text() }, result.message);
    this.emit('exit', result);
  }

  private releaseSource(): void {
    if (this.child?.io) this.sourceStream?.unpipe(this.child.io);
    this.relayed?.close();
  }
}

/** The kind of an HTTP refusal, as ffmpeg's own message of it is told (decode-problem.ts). */
function problemOfStatus(status: number): DecodeProblem {
  if (status === 401 || status === 403) return 'sourceRefused';
  if (status === 404 || status === 410) return 'sourceNotFound';
  return 'decodeFailed';
}

/** A fresh stream the relay can go on with: a platform's address again, not a file or a local stream. */
function platformAddressOf(fresh: UrlInput | undefined) {
  if (!fresh || fresh.servedLocally || fresh.userAddress || !/^https?:/i.test(fresh.url)) return undefined;
  return { url: fresh.url, ...(fresh.headers ? { headers: fresh.headers } : {}) };
}

function spawnMessage(error: LaunchError): string {
  const { code } = error;
  return code === 'ENOENT' || code === 'EACCES'
    ? `ffmpeg could not be started (${code}): install the ffmpeg package or set FFMPEG_PATH`
    : `ffmpeg could not be started: ${error.message}`;
}
