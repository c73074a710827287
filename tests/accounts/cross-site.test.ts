import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type Session, setupAdmin } from '../helpers/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

let t: TestApp;
let admin: Session;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await setupAdmin(t);
  key = await createKey(admin);
});
afterAll(() => t.close());

const send = (method: string, headers: Record<string, string>) =>
  t.fetch(
    new Request(`${TEST_ORIGIN}/api/bot/settings`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(method === 'GET' ? {} : { body: JSON.stringify({ autoPauseOnEmpty: true }) }),
    }),
  );

describe('cross-site check', () => {
  it('refuses a cookie request from another origin', async () => {
    const res = await send('POST', { cookie: admin.jar.header()!, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'cross-site request refused' });
  });

  it('falls back to Referer when there is no Origin', async () => {
    const res = await send('POST', { cookie: admin.jar.header()!, referer: 'https://evil.example/page' });
    expect(res.status).toBe(403);
  });

  it('accepts the same origin, and safe methods from anywhere', async () => {
    expect((await send('POST', { cookie: admin.jar.header()!, origin: TEST_ORIGIN })).status).toBe(200);
    expect((await send('GET', { cookie: admin.jar.header()!, origin: 'https://evil.example' })).status).toBe(
      200,
    );
  });

  it('skips the check for key-only requests but not when a cookie rides along', async () => {
    expect(
      (await send('POST', { authorization: `Bearer ${key}`, origin: 'https://evil.example' })).status,
    ).toBe(200);
    expect(
      (
        await send('POST', {
          authorization: `Bearer ${key}`,
          cookie: admin.jar.header()!,
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403);
  });
});
