/**
 * Reads a stored login cookie (`name=value; name2=value2`, as copied from a browser or returned by a
 * QR login) into its values. The cookie itself is a secret: callers send it to the platform only and
 * never log it.
 */
export function cookieValues(cookie: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const part of cookie.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) values.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return values;
}

/**
 * The cookies a response sets (`Set-Cookie`), as one `name=value; …` string in the form `cookieValues`
 * reads: attributes are dropped, and so are cookies the platform deletes (empty or `deleted` values).
 */
export function setCookies(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]?.trim() ?? '')
    .filter((pair) => {
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      return at > 0 && value !== '' && value !== 'deleted';
    })
    .join('; ');
}

/**
 * `stored` with the values of `update` (both `name=value; …`): a name in both takes the new value in
 * its old place, a new name is added at the end, the rest stays. For logins whose refresh answers only
 * the cookies it renews.
 */
export function mergeCookies(stored: string, update: string): string {
  const merged = cookieValues(stored);
  for (const [name, value] of cookieValues(update)) merged.set(name, value);
  return [...merged].map(([name, value]) => `${name}=${value}`).join('; ');
}
