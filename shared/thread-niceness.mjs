// Sets the calling thread's nice value, in plain JavaScript so that a worker thread's bootstrap can
// call it before it loads TypeScript: the module loader tsx starts for the thread is a thread of its
// own and inherits the priority of the thread that starts it. A thread starts at its creator's
// priority, which may be the frame clock's raised one (shared/thread-priority.ts says who runs at which).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The audio workers', the database thread's, the module loaders' and the launchers'. */
export const NORMAL_NICENESS = 0;

/**
 * On Linux a thread's nice value is its own: `setpriority` given a thread id changes that thread only,
 * and /proc/thread-self names the caller. Throws where that fails (not Linux, or a lower value than
 * the thread has without the privilege to take it).
 */
export function setThreadNiceness(niceness) {
  setPriority(currentThreadId(), niceness);
}

/** The calling thread's id (Linux: /proc/thread-self names it); throws elsewhere. */
export function currentThreadId() {
  return Number(readlinkSync('/proc/thread-self').split('/').pop());
}

/** The same, for a thread that must not fail to start over it: where refused, nothing changes. */
export function trySetThreadNiceness(niceness) {
  try {
    setThreadNiceness(niceness);
    return true;
  } catch {
    return false;
  }
}
