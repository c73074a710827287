/**
 * Lowers the scheduling priority of the calling thread alone. On Linux a thread's nice value is its
 * own: `setpriority` given a thread id changes that thread only, and /proc/thread-self names the
 * caller. Elsewhere (or if refused) nothing changes; the audio clock is only less protected under load.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { logger } from './logger';

const log = logger('priority');

export function lowerThreadPriority(niceness: number): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(threadId, niceness);
  } catch (error) {
    log.debug({ err: error }, 'could not lower this thread’s priority');
  }
}
