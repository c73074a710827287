/**
 * SPEC Bots, PUT /api/bot/{id}: "connection changes take effect after stop then start". A connected
 * bot moved to another voice server (and given another nickname) stays where it is, as it is, until
 * it is stopped and started; then it is on the new server under the new name and gone from the old.
 * Two TS3 test servers on loopback, signed by one license root.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLicenseRoot } from '../../daemon/ts3';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';

let before: Ts3TestServer;
let after: Ts3TestServer;
let t: TestApp;
let admin: Session;
let botId: string;
const id = () => ({ params: { path: { id: botId } } });
const names = (server: Ts3TestServer) => server.clients.map((client) => client.nickname);

beforeAll(async () => {
  const rootSecret = randomBytes(32);
  before = await Ts3TestServer.start({ rootSecret });
  after = await Ts3TestServer.start({ rootSecret });
  const root = parseLicenseRoot(before.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  t = await startTestApp({ ts3: { licenseRoot: root.value } });
  admin = await setupAdmin(t);
  const created = await admin.api.POST('/api/bot', {
    body: { name: 'Mover', nickname: 'Mover Before', serverAddress: '127.0.0.1', serverPort: before.port },
  });
  botId = created.data!.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await before?.close();
  await after?.close();
});

describe('a connection change of a connected bot', () => {
  it('takes effect only after stop and start', async () => {
    expect((await admin.api.POST('/api/bot/{id}/start', id())).data?.connected).toBe(true);
    await expect.poll(() => names(before)).toContain('Mover Before');

    const changed = await admin.api.PUT('/api/bot/{id}', {
      ...id(),
      body: { serverPort: after.port, nickname: 'Mover After' },
    });
    expect(changed.response.status).toBe(200);
    // Still where it was, as it was: the change waits for a restart.
    await new Promise((r) => setTimeout(r, 500));
    expect((await admin.api.GET('/api/bot/{id}', id())).data?.connected).toBe(true);
    expect(names(before)).toContain('Mover Before');
    expect(names(after)).toEqual([]);

    expect((await admin.api.POST('/api/bot/{id}/stop', id())).data?.connected).toBe(false);
    expect((await admin.api.POST('/api/bot/{id}/start', id())).data?.connected).toBe(true);
    await expect.poll(() => names(after)).toEqual(['Mover After']);
    await expect.poll(() => names(before)).toEqual([]);
  });
});
