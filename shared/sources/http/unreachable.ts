/**
 * The two sentences a platform call ends with when the platform never answered: it could not be
 * reached, or it did not answer in time. They are written here and recognised here, so the web UI can
 * tell "this server cannot reach NetEase" from "NetEase refused" by the same rule that words them.
 * Pure functions: the web bundle imports this module.
 */

/** `service` could not be reached; `why` is the network's own reason (ECONNREFUSED, "fetch failed"). */
export const unreachableSentence = (service: string, why: string): string =>
  `${service} could not be reached (${why})`;

export const timedOutSentence = (service: string, seconds: number): string =>
  `${service} did not answer within ${seconds} s`;

/** Whether a platform's failure says it never answered (either sentence above), not that it refused. */
export const saysUnreachable = (sentence: string): boolean =>
  / could not be reached \(.*\)$| did not answer within \d+ s$/.test(sentence);
