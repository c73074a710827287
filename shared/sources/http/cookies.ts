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
