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
