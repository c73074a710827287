/**
 * A platform's JSON answer that sets login cookies. It is a plain Response, not msw's HttpResponse: msw
 * plays a browser with HttpResponse's Set-Cookie, keeping the cookies and adding them to every later
 * request's Cookie header as the stand-ins see it, which would hide what the app itself sent.
 */
export function jsonSettingCookies(body: unknown, setCookies: readonly string[]): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  for (const line of setCookies) headers.append('set-cookie', line);
  return new Response(JSON.stringify(body), { headers });
}
