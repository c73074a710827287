/**
 * One clock for timestamps taken in different processes: performance.now() placed on the wall clock
 * by the process's time origin, so a command's send time in the bot process and a packet's arrival
 * in the server process can be subtracted.
 */
export const epochMs = (performanceMs = performance.now()): number => performance.timeOrigin + performanceMs;
