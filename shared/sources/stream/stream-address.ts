/**
 * A `stream` song's id is its address: the URL as given (URL-encoded in a path, decoded by the
 * router), normalised by WHATWG URL parsing so one station is one id.
 */

/** The longest address taken: far beyond any real one, short enough for ids and logs. */
export const MAX_ADDRESS_LENGTH = 2048;

/** The address in `text`, when the whole text is one http(s) URL. */
export function streamAddress(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length > MAX_ADDRESS_LENGTH || !/^https?:\/\/\S+$/i.test(trimmed)) return undefined;
  try {
    return new URL(trimmed).href;
  } catch {
    return undefined;
  }
}

/** The title of last resort: the address's last path segment, or its host. */
export function titleFromAddress(address: string): string {
  const url = new URL(address);
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  let name = last;
  try {
    name = last === undefined ? undefined : decodeURIComponent(last);
  } catch {
    // A malformed escape: the segment as written.
  }
  return name?.replace(/\.[a-z0-9]{1,5}$/i, '') || url.host;
}
