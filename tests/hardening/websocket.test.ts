/**
 * The WebSocket refuses cross-site upgrades and sockets without a valid credential (issue #16), with
 * real `ws` clients on a loopback port: a cookie sent from another site (other host, other port,
 * `null`, look-alike hosts, a Referer alone) gets 403 whoever the cookie belongs to, even with a key
 * beside it; no credential, forged cookies, a revoked key, a forged service token, an ended session
 * and a guest session after guest mode is switched off get 401; a malformed URL gets 400. No refusal
 * is a 5xx, and a good socket still opens afterwards. (A refused upgrade carries its status only:
 * @hono/node-ws answers it with an empty body, and browsers do not show a failed handshake's body.)
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SERVICE_TOKEN_HEADER } from '../../shared/service-headers';
import { createKey, createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { recordTally } from './tally';

interface Upgrade {
  status: number;
  /** The first frame of an opened socket. */
  frame?: string;
}

let t: TestApp;
let base: string;
let admin: Session;
let adminKey: string;
const tally = { requests: 0, badInputs: 0, serverErrors: 0 };

/** Tries an upgrade: 101 with the first frame, or the refusal's status. */
function upgrade(headers: Record<string, string>, path = '/ws'): Promise<Upgrade> {
  tally.requests++;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}${path}`, { headers });
    ws.on('message', (data) => {
      resolve({ status: 101, frame: String(data) });
      ws.close();
    });
    ws.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      if (status >= 500) tally.serverErrors++;
      response.resume();
      resolve({ status });
    });
    ws.on('error', (error) => {
      if (!String(error).includes('Unexpected server response')) reject(error);
    });
  });
}

const cookieOf = (s: Session) => s.jar.header()!;

beforeAll(async () => {
  t = await startTestApp();
  base = (await t.listen()).replace('http', 'ws');
  admin = await setupAdmin(t);
  adminKey = await createKey(admin);
});
afterAll(async () => {
  recordTally('websocket upgrades', { ...tally, principals: 6 });
  await t.close();
});

describe('the WebSocket upgrade', () => {
  it('refuses a session cookie sent from another site, with or without a key beside it', async () => {
    const own = new URL(base.replace('ws', 'http')).host;
    const member = await createMember(t, admin);
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    const origins: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'http://127.0.0.1:1' },
      { origin: 'null' },
      { origin: `http://${own}.evil.example` },
      { origin: `http://${own}@evil.example` },
      { origin: `http://evil.example/${own}` },
      { origin: 'not a url' },
      { referer: 'https://evil.example/page' },
    ];
    for (const cookie of [cookieOf(admin), cookieOf(member), guest.jar.header()!])
      for (const from of origins) {
        tally.badInputs++;
        const refused = await upgrade({ cookie, ...from });
        expect({ from, refused }).toEqual({ from, refused: { status: 403 } });
      }
    const withKey = await upgrade({
      cookie: cookieOf(admin),
      authorization: `Bearer ${adminKey}`,
      origin: 'https://evil.example',
    });
    expect(withKey.status).toBe(403);
  });

  it('refuses sockets without a valid credential', async () => {
    const member = await createMember(t, admin);
    const revoked = await createKey(member, 'to revoke');
    const [key] = (await member.api.GET('/api/keys')).data!.keys;
    await member.api.DELETE('/api/keys/{id}', { params: { path: { id: key!.id } } });
    const ended = cookieOf(member);
    await member.api.POST('/api/session/logout');
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: false } } });

    const credentials: Record<string, string>[] = [
      {},
      { cookie: `tsmb_session=${randomBytes(20).toString('hex')}` },
      { cookie: `tsmb_guest=${randomBytes(20).toString('hex')}` },
      { cookie: 'tsmb_session=%ED%A0%80; tsmb_guest=' },
      { cookie: ended },
      { cookie: guest.jar.header()! },
      { authorization: `Bearer ${revoked}` },
      { authorization: 'Bearer tsmb_' },
      { 'x-api-key': 'x'.repeat(10_000) },
      { authorization: `Basic ${Buffer.from('admin:correct horse battery').toString('base64')}` },
      { [SERVICE_TOKEN_HEADER]: randomBytes(32).toString('hex') },
    ];
    for (const headers of credentials) {
      tally.badInputs++;
      const refused = await upgrade(headers);
      expect({ headers: Object.keys(headers), status: refused.status }).toEqual({
        headers: Object.keys(headers),
        status: 401,
      });
    }
  });

  it('answers a malformed URL with 400, and still opens good sockets afterwards', async () => {
    tally.badInputs += 2;
    expect((await upgrade({ cookie: cookieOf(admin) }, '/ws?%')).status).toBe(400);
    expect((await upgrade({ cookie: cookieOf(admin) }, '/ws?q=%ED%A0%80')).status).toBe(400);
    const own = new URL(base.replace('ws', 'http')).origin;
    const opened = await upgrade({ cookie: cookieOf(admin), origin: own });
    expect(opened.status).toBe(101);
    expect(JSON.parse(opened.frame!)).toMatchObject({ type: 'hello' });
    // A key alone is never sent by a browser on its own, so another origin does not matter.
    expect(
      (await upgrade({ authorization: `Bearer ${adminKey}`, origin: 'https://evil.example' })).status,
    ).toBe(101);
  });
});
