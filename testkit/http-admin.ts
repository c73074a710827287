/**
 * The first admin of a service reached over HTTP (a `make run` process, a bench's service), set up as
 * the setup wizard does: its session cookie, the credential a browser then sends.
 */
import { MEMBER_SESSION_COOKIE } from '../api/access/sessions';

export async function setupAdminOverHttp(base: string, password: string): Promise<string> {
  const answer = await fetch(`${base}/api/session/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const cookie = answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith(`${MEMBER_SESSION_COOKIE}=`));
  if (!answer.ok || !cookie) throw new Error(`setup answered ${answer.status} without a session cookie`);
  return cookie;
}
