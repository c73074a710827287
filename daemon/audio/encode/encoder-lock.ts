/**
 * One lock per process around native Opus encoding. The native build of @evan/opus writes every
 * packet into a single static 8 KB buffer shared by all threads and copies it out afterwards, so two
 * threads encoding at once overwrite each other's packets (seen here: a quarter of the frames of two
 * concurrent workers came out wrong). Encoding under this lock makes that copy safe; at 80-90 µs per
 * frame it is held well under half the time even with 100 bots, so waiting for it is rare and short.
 *
 * The lock word lives in a SharedArrayBuffer made by the main thread; the audio worker pool hands it
 * to each worker (`adoptEncoderLock`). A holder that died inside the lock (a worker terminated mid-
 * encode) must not freeze every other thread's audio: after STEAL_AFTER_MS of waiting the lock is
 * taken over. That is a full second, far past any real encode (under 0.1 ms) or preemption of a live
 * holder, because taking over from a live holder would garble both threads' packets.
 */
import { logger } from '../../../shared/logger';

const log = logger('audio.encoder');
const FREE = 0;
const HELD = 1;
const WAIT_SLICE_MS = 10;
const STEAL_AFTER_MS = 1000;

let lockWord = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

/** The memory of this process's lock, to hand to a new worker thread. */
export function encoderLockBuffer(): SharedArrayBuffer {
  return lockWord.buffer as SharedArrayBuffer;
}

/** In a worker thread: use the process's lock instead of this thread's own. */
export function adoptEncoderLock(buffer: SharedArrayBuffer): void {
  lockWord = new Int32Array(buffer);
}

export function withEncoderLock<T>(run: () => T): T {
  acquire();
  try {
    return run();
  } finally {
    Atomics.store(lockWord, 0, FREE);
    Atomics.notify(lockWord, 0, 1);
  }
}

function acquire(): void {
  // Real time, not a count of waits: a wait woken by another thread's release returns at once.
  const startedMs = performance.now();
  while (Atomics.compareExchange(lockWord, 0, FREE, HELD) !== FREE) {
    const waitedMs = performance.now() - startedMs;
    if (waitedMs >= STEAL_AFTER_MS) {
      log.warn({ waitedMs: Math.round(waitedMs) }, 'Opus encoder lock held too long; taking it over');
      Atomics.store(lockWord, 0, HELD);
      return;
    }
    Atomics.wait(lockWord, 0, HELD, WAIT_SLICE_MS);
  }
}
