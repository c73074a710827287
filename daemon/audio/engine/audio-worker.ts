/**
 * An audio worker thread (started by AudioWorkerPool): owns the pipelines of many players
 * (worker-slot.ts) and keeps their lookaheads full. It wakes for control messages, for ffmpeg's PCM,
 * and for the doorbell the main thread rings after each tick that took frames, so a frame taken is
 * replaced at once, without a timer of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { configureLogging } from '../../../shared/logger';
import { adoptEncoderLock } from '../encode/encoder-lock';
import type { AudioWorkerData, FromWorker, ToWorker } from './audio-worker-protocol';
import { fillBreadthFirst, WorkerSlot } from './worker-slot';

const port = parentPort;
if (!port) throw new Error('audio-worker.ts runs only as a worker thread');
const data = workerData as AudioWorkerData;
configureLogging(data.logging);
adoptEncoderLock(data.encoderLock);
const doorbell = new Int32Array(data.doorbell);
const slots = new Map<number, WorkerSlot>();
/** The largest lookahead of any slot opened here: how many rounds a fill makes. */
let deepestLookahead = 1;
const post = (message: FromWorker) => port.postMessage(message);

/** `Atomics.waitAsync` (Node 16+), which the ES2023 lib the project compiles against does not declare. */
type WaitAsyncResult = { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (
  Atomics as unknown as { waitAsync: (array: Int32Array, index: number, value: number) => WaitAsyncResult }
).waitAsync;

/** One slot's failure must not stop the others' audio. */
function guarded(slot: WorkerSlot, run: () => void): void {
  try {
    run();
  } catch (error) {
    slot.fail(error);
  }
}

function handle(message: ToWorker): void {
  if (message.type === 'open') {
    slots.set(message.slot, new WorkerSlot(message.slot, message, post));
    deepestLookahead = Math.max(deepestLookahead, message.lookaheadFrames);
    return;
  }
  const slot = slots.get(message.slot);
  if (!slot) return;
  switch (message.type) {
    case 'play':
      guarded(slot, () => slot.play(message));
      break;
    case 'input':
      guarded(slot, () => slot.input(message.generation, message.chunk));
      break;
    case 'inputEnd':
      guarded(slot, () => slot.input(message.generation, undefined));
      break;
    case 'stop':
      slot.stop(message.generation);
      break;
    case 'gain':
      slot.changeGain(message.change, message.rewind);
      break;
    case 'loudness':
      slot.retargetLoudness(message.targetLufs);
      break;
    case 'renewed':
      slot.renewed(message.request, message.input);
      return;
    case 'close':
      slots.delete(message.slot);
      slot.close();
      return;
  }
  guarded(slot, () => slot.fill());
}

function fillAll(): void {
  fillBreadthFirst(slots, deepestLookahead);
}

/** Waits for the doorbell without blocking the thread's event loop (ffmpeg's pipes live on it too). */
function listen(seen: number): void {
  const wait = waitAsync(doorbell, 0, seen);
  const wake = () => {
    const now = Atomics.load(doorbell, 0);
    fillAll();
    listen(now);
  };
  if (wait.async) void wait.value.then(wake);
  else setImmediate(wake);
}

port.on('message', handle);
listen(Atomics.load(doorbell, 0));
