/**
 * The pool of audio worker threads: one per core but one by default (at least one), started lazily as
 * players open slots, each owning many players' pipelines. New slots go to the least loaded worker.
 * The core left over is the main thread's: its 20 ms send clock must never wait behind a worker for
 * a CPU. Measured on 2 cores with 100 bots (bench/runtime-bench.ts), two workers left the clock ready
 * but waiting 9 % of the time and 0.7 % of frames late; one worker, 0 late, with the same CPU per bot.
 *
 * - A worker keeps the process alive only while one of its players has a pipeline running; idle
 *   workers are unref'd, so a test or a bench ends when its players are done.
 * - Doorbells: after a tick took frames from a worker's players, that worker's doorbell is rung once
 *   (coalesced over the whole tick), and the worker refills the rings at once.
 * - A worker that dies (a bug, or `terminateWorker`) takes no one else down: its players' tracks end
 *   with an error, its ffmpeg children are killed here by pid, and the next slot starts a new worker.
 *   ffmpeg children still listed when the process exits are killed too, so none outlives the daemon.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { logger, loggingConfig } from '../../../shared/logger';
import { holdNativeOpus } from '../encode/encoder';
import { encoderLockBuffer } from '../encode/encoder-lock';
import type { AudioWorkerData, FromWorker, ToWorker } from './audio-worker-protocol';

const log = logger('audio.workers');

/** What a slot's owner (the player's WorkerEngine) hears from its worker. */
export interface SlotListener {
  onWorkerMessage(message: FromWorker): void;
  /** The worker died; every pipeline it ran is gone. */
  onWorkerLost(reason: string): void;
}

/** A player's place on one worker. */
export interface PoolSlot {
  readonly id: number;
  readonly alive: boolean;
  post(message: ToWorker): void;
  /** Asks the worker to refill (coalesced: at most one doorbell per worker per turn of the loop). */
  wake(): void;
  /** Whether this slot has a pipeline running: the worker keeps the process alive while any does. */
  setBusy(busy: boolean): void;
  close(): void;
}

interface PoolWorker {
  index: number;
  worker: Worker;
  doorbell: Int32Array;
  listeners: Map<number, SlotListener>;
  busySlots: Set<number>;
  /** ffmpeg children of this worker, by pid, until their exit is reported. */
  pids: Set<number>;
  wakePending: boolean;
  stopping: boolean;
}

export interface AudioWorkerPoolOptions {
  /** Worker threads; one per core but one by default (the main thread's send clock keeps a core). */
  size?: number;
  /**
   * Tests only: module hooks (`node:module` register) each worker installs before it loads its code.
   * A test's `vi.mock` reaches only its own thread; a hook is how a test stands in a module for the
   * workers too (tests/helpers/public-stand-in-hooks.mjs).
   */
  loaderHooks?: readonly URL[];
}

export class AudioWorkerPool {
  readonly size: number;
  private readonly workers: PoolWorker[] = [];
  private nextSlotId = 1;
  private nextWorkerIndex = 0;
  private exitHookInstalled = false;
  private readonly loaderHooks: string[];

  constructor(options: AudioWorkerPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism() - 1);
    this.loaderHooks = (options.loaderHooks ?? []).map((hook) => hook.href);
  }

  /** Workers running now. */
  get workerCount(): number {
    return this.workers.length;
  }

  open(listener: SlotListener, init: (slotId: number) => ToWorker): PoolSlot {
    const entry = this.pickWorker();
    const id = this.nextSlotId++;
    entry.listeners.set(id, listener);
    entry.worker.postMessage(init(id));
    return {
      id,
      get alive() {
        return !entry.stopping && entry.listeners.get(id) === listener;
      },
      post: (message) => {
        if (!entry.stopping) entry.worker.postMessage(message);
      },
      wake: () => this.wake(entry),
      setBusy: (busy) => this.setBusy(entry, id, busy),
      close: () => {
        if (!entry.listeners.delete(id)) return;
        this.setBusy(entry, id, false);
        if (!entry.stopping) entry.worker.postMessage({ type: 'close', slot: id } satisfies ToWorker);
      },
    };
  }

  /** Stops worker `index` as if it had crashed (its players' tracks end with an error). */
  async terminateWorker(index: number): Promise<void> {
    const entry = this.workers.find((w) => w.index === index);
    if (entry) await entry.worker.terminate();
  }

  /** Index of the worker a slot runs on, for tests and the bench. */
  workerIndexOf(slotId: number): number | undefined {
    return this.workers.find((w) => w.listeners.has(slotId))?.index;
  }

  /** Stops every worker (after their players are destroyed); the pool starts new ones if used again. */
  async close(): Promise<void> {
    const stopping = this.workers.splice(0);
    for (const entry of stopping) entry.stopping = true;
    await Promise.all(stopping.map((entry) => entry.worker.terminate()));
    for (const entry of stopping) killAll(entry.pids);
  }

  private pickWorker(): PoolWorker {
    if (this.workers.length < this.size) return this.startWorker();
    return this.workers.reduce((least, w) => (w.listeners.size < least.listeners.size ? w : least));
  }

  private startWorker(): PoolWorker {
    holdNativeOpus();
    const doorbell = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const workerData: AudioWorkerData = {
      logging: loggingConfig(),
      doorbell: doorbell.buffer as SharedArrayBuffer,
      encoderLock: encoderLockBuffer(),
      ...(this.loaderHooks.length > 0 ? { loaderHooks: this.loaderHooks } : {}),
    };
    const worker = new Worker(new URL('./audio-worker-bootstrap.mjs', import.meta.url), { workerData });
    const entry: PoolWorker = {
      index: this.nextWorkerIndex++,
      worker,
      doorbell,
      listeners: new Map(),
      busySlots: new Set(),
      pids: new Set(),
      wakePending: false,
      stopping: false,
    };
    worker.unref();
    worker.on('message', (message: FromWorker) => this.onMessage(entry, message));
    worker.on('error', (error) => log.error({ err: error, worker: entry.index }, 'audio worker crashed'));
    worker.on('exit', (code) => this.onExit(entry, code));
    this.workers.push(entry);
    this.installExitHook();
    return entry;
  }

  private onMessage(entry: PoolWorker, message: FromWorker): void {
    if (message.type === 'spawn') entry.pids.add(message.pid);
    if (message.type === 'childGone') {
      entry.pids.delete(message.pid);
      return;
    }
    entry.listeners.get(message.slot)?.onWorkerMessage(message);
  }

  private onExit(entry: PoolWorker, code: number): void {
    const index = this.workers.indexOf(entry);
    if (index >= 0) this.workers.splice(index, 1);
    killAll(entry.pids);
    if (entry.stopping) return;
    entry.stopping = true;
    const reason = `audio worker stopped (exit code ${code})`;
    log.error({ worker: entry.index, code, players: entry.listeners.size }, reason);
    const listeners = [...entry.listeners.values()];
    entry.listeners.clear();
    for (const listener of listeners) listener.onWorkerLost(reason);
  }

  private wake(entry: PoolWorker): void {
    if (entry.wakePending) return;
    entry.wakePending = true;
    queueMicrotask(() => {
      entry.wakePending = false;
      Atomics.add(entry.doorbell, 0, 1);
      Atomics.notify(entry.doorbell, 0);
    });
  }

  private setBusy(entry: PoolWorker, slotId: number, busy: boolean): void {
    const wasIdle = entry.busySlots.size === 0;
    if (busy) entry.busySlots.add(slotId);
    else entry.busySlots.delete(slotId);
    const idle = entry.busySlots.size === 0;
    if (wasIdle && !idle) entry.worker.ref();
    else if (!wasIdle && idle) entry.worker.unref();
  }

  /** A process that exits (even by a crash) takes its workers' ffmpeg children with it. */
  private installExitHook(): void {
    if (this.exitHookInstalled) return;
    this.exitHookInstalled = true;
    process.once('exit', () => {
      for (const entry of this.workers) killAll(entry.pids);
    });
  }
}

function killAll(pids: Set<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  pids.clear();
}

let sharedPool: AudioWorkerPool | undefined;

/** The process-wide pool every workers-engine player uses unless given its own. */
export function audioWorkerPool(): AudioWorkerPool {
  sharedPool ??= new AudioWorkerPool();
  return sharedPool;
}
