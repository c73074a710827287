/**
 * Jellyfin ids are GUIDs (answered as 32 hex digits, accepted with or without dashes). Anything else
 * is refused with HTTP 400 by the server, so such an id is "no such item" without asking it, and
 * only well-formed ids ever reach a URL path.
 */
const GUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export function isJellyfinId(id: string): boolean {
  return GUID.test(id);
}

/** Whether two ids name the same item, whatever their dashes and case. */
export function sameJellyfinId(a: string, b: string): boolean {
  const plain = (id: string) => id.replaceAll('-', '').toLowerCase();
  return plain(a) === plain(b);
}
