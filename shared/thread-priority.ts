/**
 * Sets the scheduling priority of the calling thread alone (thread-niceness.mjs); a new thread starts
 * with its creator's. Elsewhere (or if refused) nothing changes; the audio clock is only less
 * protected under load.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { logger } from './logger';
import { currentThreadId, NORMAL_NICENESS, setThreadNiceness } from './thread-niceness.mjs';

const execFileAsync = promisify(execFile);

const log = logger('priority');

/**
 * Who waits for whom when the cores are busy (nice values; higher waits more). The thread that owns
 * the 20 ms clock goes first where it may (CLOCK_NICENESS below), else keeps 0; the audio workers keep
 * 0 (a worker at nice 5 ran dry under an api flood with its lookahead of 60 ms then). The api's
 * thread (`make run`) waits for them, level with the decoders, which are seconds of PCM ahead
 * (shared/exec/process-launcher.ts): under a flood of requests the audio goes first, and the api still gets
 * every core the audio leaves idle.
 */
export const API_NICENESS = 10;
export { NORMAL_NICENESS };

export function lowerThreadPriority(niceness: number): void {
  try {
    setThreadNiceness(niceness);
  } catch (error) {
    log.debug({ err: error }, 'could not lower this thread’s priority');
  }
}

/**
 * The frame clock's thread asks to go first when the system lets it (root, or CAP_SYS_NICE as a
 * service manager can grant): with a weight 9 times a normal thread's, the scheduler picks it as soon
 * as its timer fires, ahead of the audio workers, the decoders and anything else on the machine.
 * Refused (an ordinary user), the clock runs at the normal priority, as before.
 */
export const CLOCK_NICENESS = -10;
/**
 * Where the system also grants real-time scheduling, the clock's thread takes SCHED_FIFO at this
 * priority (1-99; low, so the kernel's own real-time threads still go first). A nice value only
 * weighs the share of a core: at −10 the clock still waited 10-16 ms for one now and then at 150
 * bots, a single such tick being 0.25 % of the frames; a real-time thread takes the core from any
 * ordinary one the moment its timer fires. Its children (threads and processes) start as ordinary
 * ones again (`--reset-on-fork`), and the kernel keeps 5 % of each second for ordinary threads
 * whatever a real-time one does.
 */
export const CLOCK_REALTIME_PRIORITY = 10;

export function raiseClockThreadPriority(): boolean {
  try {
    setThreadNiceness(CLOCK_NICENESS);
    return true;
  } catch (error) {
    log.debug({ err: error }, 'the frame clock keeps the normal priority');
    return false;
  }
}

/**
 * Makes the calling thread, the frame clock's, a real-time one where the system allows it; the
 * entries that run a daemon ask (not the tests, whose threads also run the test code). Resolves
 * whether it did.
 */
export async function requestRealtimeClock(): Promise<boolean> {
  try {
    // util-linux's chrt (in every Debian): Node has no call for a thread's scheduling policy.
    await execFileAsync('chrt', [
      '--fifo',
      '--reset-on-fork',
      '--pid',
      String(CLOCK_REALTIME_PRIORITY),
      String(currentThreadId()),
    ]);
    log.info(
      { priority: CLOCK_REALTIME_PRIORITY },
      'the frame clock runs as a real-time thread (SCHED_FIFO)',
    );
    return true;
  } catch (error) {
    log.info(
      { reason: error instanceof Error ? error.message.split('\n')[0] : String(error) },
      'the frame clock is not a real-time thread (not allowed here); it runs at a raised or normal priority',
    );
    return false;
  }
}
