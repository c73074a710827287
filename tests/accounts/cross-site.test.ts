import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

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
    expect(await res.json()).toMatchObject({ error: 'cross-site request refused' });
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

  describe('behind a proxy on a port other than the scheme default', () => {
    const proxied = 'https://music.example.org:8443';
    const post = (headers: Record<string, string>) =>
      send('POST', { cookie: admin.jar.header()!, 'x-forwarded-proto': 'https', ...headers });

    it('takes the port from X-Forwarded-Port when X-Forwarded-Host has none', async () => {
      const behindPort = { 'x-forwarded-host': 'music.example.org', 'x-forwarded-port': '8443' };
      expect((await post({ ...behindPort, origin: proxied })).status).toBe(200);
      expect((await post({ ...behindPort, origin: 'https://music.example.org' })).status).toBe(403);
      // The scheme's own port is not written out, as browsers leave it out of Origin.
      const onDefault = { 'x-forwarded-host': 'music.example.org', 'x-forwarded-port': '443' };
      expect((await post({ ...onDefault, origin: 'https://music.example.org' })).status).toBe(200);
    });

    it('reads X-Forwarded-Host with its port, and RFC 7239 Forwarded before both', async () => {
      expect((await post({ 'x-forwarded-host': 'music.example.org:8443', origin: proxied })).status).toBe(
        200,
      );
      const forwarded = { forwarded: 'for=192.0.2.60;proto=https;host="music.example.org:8443"' };
      expect((await post({ ...forwarded, origin: proxied })).status).toBe(200);
      expect(
        (await post({ ...forwarded, 'x-forwarded-host': 'evil.example', origin: 'https://evil.example' }))
          .status,
      ).toBe(403);
    });

    it('ignores forwarded headers from a proxy that is not trusted', async () => {
      const direct = await startTestApp({ withDaemon: false, env: { TRUST_PROXY: '0' } });
      try {
        const owner = await setupAdmin(direct);
        const res = await direct.fetch(
          new Request(`${TEST_ORIGIN}/api/bot/settings`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              cookie: owner.jar.header()!,
              'x-forwarded-host': 'evil.example',
              origin: 'https://evil.example',
            },
            body: JSON.stringify({ autoPauseOnEmpty: true }),
          }),
        );
        expect(res.status).toBe(403);
      } finally {
        await direct.close();
      }
    });

    it('counts PUBLIC_URL as an origin of the service itself, whatever the proxy sends', async () => {
      const published = await startTestApp({
        withDaemon: false,
        env: { PUBLIC_URL: `${proxied}/music-bot` },
      });
      try {
        const owner = await setupAdmin(published);
        const postFrom = (origin: string) =>
          published.fetch(
            new Request(`${TEST_ORIGIN}/api/bot/settings`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie: owner.jar.header()!, origin },
              body: JSON.stringify({ autoPauseOnEmpty: true }),
            }),
          );
        expect((await postFrom(proxied)).status).toBe(200);
        expect((await postFrom('https://music.example.org:9443')).status).toBe(403);
      } finally {
        await published.close();
      }
    });
  });
});
