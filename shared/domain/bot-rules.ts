/**
 * What a bot's nickname and server address must be, in one place: the API's schema enforces it and
 * the browser checks it before sending, so both say the same thing.
 */

/** TeamSpeak nicknames are 3-30 characters. */
export const NICKNAME_MIN = 3;
export const NICKNAME_MAX = 30;
/** A host name, an IPv4 address or an IPv6 one (in brackets or not). */
export const SERVER_ADDRESS_PATTERN = /^[\w.:[\]-]+$/;
export const SERVER_ADDRESS_MAX = 255;

/** Whether `nickname` (surrounding spaces aside, as the API trims them) is one TeamSpeak takes. */
export function validNickname(nickname: string): boolean {
  const trimmed = nickname.trim();
  return trimmed.length >= NICKNAME_MIN && trimmed.length <= NICKNAME_MAX;
}

/**
 * Why `address` is not a server address, or undefined when it is one. One colon is a host with its
 * port (an IPv6 address has at least two): the port has a field of its own.
 */
export function serverAddressProblem(address: string): 'format' | 'withPort' | undefined {
  const trimmed = address.trim();
  if (trimmed.length === 0 || trimmed.length > SERVER_ADDRESS_MAX || !SERVER_ADDRESS_PATTERN.test(trimmed))
    return 'format';
  return trimmed.split(':').length === 2 ? 'withPort' : undefined;
}
