/**
 * Lowers the scheduling priority of the calling thread alone. On Linux a thread's nice value is its
 * own: `setpriority` given a thread id changes that thread only, and /proc/thread-self names the
 * caller. Elsewhere (or if refused) nothing changes; the audio clock is only less protected under load.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { logger } from './logger';

const log = logger('priority');

/**
 * Who waits for whom when the cores are busy (nice values; higher waits more). The thread that owns
 * the 20 ms clock and the audio workers keep 0 (a worker at nice 5 ran dry under an api flood: its
 * 60 ms lookahead is not much slack). The api's thread (`make run`) waits for them, level with ffmpeg,
 * which is seconds of PCM ahead (daemon/audio/decoder.ts): under a flood of requests the audio goes
 * first, and the api still gets every core the audio leaves idle.
 */
export const API_NICENESS = 10;

export function lowerThreadPriority(niceness: number): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(threadId, niceness);
  } catch (error) {
    log.debug({ err: error }, 'could not lower this thread’s priority');
  }
}
