/**
 * Sets the scheduling priority of the calling thread alone (thread-niceness.mjs); a new thread starts
 * with its creator's. Elsewhere (or if refused) nothing changes; the audio clock is only less
 * protected under load.
 */
import { logger } from './logger';
import { NORMAL_NICENESS, setThreadNiceness } from './thread-niceness.mjs';

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

export function raiseClockThreadPriority(): boolean {
  try {
    setThreadNiceness(CLOCK_NICENESS);
    return true;
  } catch (error) {
    log.debug({ err: error }, 'the frame clock keeps the normal priority');
    return false;
  }
}
