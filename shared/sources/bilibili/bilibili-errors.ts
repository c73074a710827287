/**
 * Bilibili's own error codes as sentences a listener can read. The codes and what they mean come from
 * SocialSisterYi/bilibili-API-collect (docs/misc/errcode.md for the common ones, docs/video/info.md
 * for the video states 62002/62004/62012, docs/misc/sign/wbi.md for the voucher a refused signature
 * gets) and the risk-control code -352 the public clients meet on search.
 */
export const SERVICE = 'Bilibili';

/** Codes `view` answers for a video that does not exist, or that no one else may see. */
export const UNKNOWN_VIDEO_CODES: readonly number[] = [-404, 62002, 62004, 62012];

const NEEDS_LOGIN = -101;
const RISK_CONTROL = [-352, -412];
const RATE_LIMITED = [-509, -799];

const SENTENCES: Record<number, string> = {
  [-400]: `${SERVICE} called the request malformed`,
  [-403]: `${SERVICE} denied access to this`,
  [-404]: `${SERVICE} has no such video`,
  [-688]: `${SERVICE} does not offer this in our region`,
  [-689]: `${SERVICE} cannot play this for copyright reasons`,
  62002: `the video is hidden on ${SERVICE}`,
  62004: `the video is still under review on ${SERVICE}`,
  62012: `the video is visible only to its uploader on ${SERVICE}`,
};

export const riskControlSentence = (how: string) =>
  `${SERVICE} refused the request as suspected automation (${how}); try again later or store a ${SERVICE} login`;

/** The sentence for error `code` on the call `what` (e.g. "search"). */
export function errorSentence(
  code: number,
  what: string,
  loggedIn: boolean,
  message?: string | null,
): string {
  if (code === NEEDS_LOGIN)
    return loggedIn
      ? `the ${SERVICE} login has expired; log in again`
      : `${SERVICE} needs a login for this; log in first`;
  if (RISK_CONTROL.includes(code)) return riskControlSentence(`code ${code}`);
  if (RATE_LIMITED.includes(code)) return `${SERVICE} is limiting how often we ask; try again in a minute`;
  const known = SENTENCES[code];
  if (known) return `${known} (code ${code})`;
  return `${SERVICE} refused ${what} (code ${code}${message ? `: ${message}` : ''})`;
}
